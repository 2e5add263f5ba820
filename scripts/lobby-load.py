#!/usr/bin/env python3
# Creates N matches on a running `umpire serve` (start it with
# `--creates-per-minute 0 --conns-per-address 0 --matches-per-address 0`),
# of the first game it serves, then times GET /api/games while 8 threads
# poll the lobby. Usage: scripts/lobby-load.py PORT N
import http.client, json, sys, threading, time, statistics
from concurrent.futures import ThreadPoolExecutor
port, n = int(sys.argv[1]), int(sys.argv[2])
def req(method, path, body=None):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    c.request(method, path, body=json.dumps(body) if body else None, headers={'content-type': 'application/json'})
    r = c.getresponse(); data = r.read(); c.close(); return r.status, data
# The matches are of the first game the server serves.
game = json.loads(req('GET', '/api/games')[1])[0]['id']
t0 = time.time()
with ThreadPoolExecutor(32) as ex:
    codes = list(ex.map(lambda _: req('POST', '/api/matches', {'game': game})[0], range(n)))
print(f"created {codes.count(201)} of {n} in {time.time()-t0:.1f} s")
stop = False
polls = []
def poll():
    while not stop:
        s = time.perf_counter(); req('GET', '/api/matches'); polls.append(time.perf_counter() - s)
threads = [threading.Thread(target=poll) for _ in range(8)]
for t in threads: t.start()
time.sleep(1)
lat = []
for _ in range(200):
    s = time.perf_counter(); st, _ = req('GET', '/api/games'); lat.append((time.perf_counter() - s) * 1000)
    time.sleep(0.01)
stop = True
for t in threads: t.join()
lat.sort()
print(f"GET /api/games while 8 lobbies poll: p50 {statistics.median(lat):.2f} ms, p99 {lat[int(len(lat)*0.99)-1]:.2f} ms, max {lat[-1]:.2f} ms")
polls.sort()
print(f"lobby polls: {len(polls)}, p50 {statistics.median(polls)*1000:.2f} ms, p99 {polls[int(len(polls)*0.99)-1]*1000:.2f} ms")
