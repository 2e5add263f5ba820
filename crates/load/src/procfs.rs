//! A process's CPU time and peak memory, read from /proc.

use std::collections::BTreeMap;

/// The process's CPU time so far (user + system, its finished threads
/// included), from /proc/PID/stat.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    stat_seconds(&format!("/proc/{pid}/stat"))
}

/// User + system seconds from a `stat` file of /proc.
pub fn stat_seconds(path: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The command name may hold spaces: count fields after its `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on every Linux the kernel ABI still supports.
    Some(ticks as f64 / 100.0)
}

/// Each live thread's name (its number dropped: `umpire-bot-1` is
/// `umpire-bot`) and CPU seconds so far, by thread id.
pub fn thread_seconds(pid: u32) -> BTreeMap<u64, (String, f64)> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return BTreeMap::new();
    };
    tasks
        .flatten()
        .filter_map(|task| {
            let tid: u64 = task.file_name().to_str()?.parse().ok()?;
            let dir = task.path();
            let name = std::fs::read_to_string(dir.join("comm")).ok()?;
            let name = name.trim().trim_end_matches(|c: char| c.is_ascii_digit());
            let seconds = stat_seconds(dir.join("stat").to_str()?)?;
            Some((tid, (name.trim_end_matches('-').to_string(), seconds)))
        })
        .collect()
}

/// CPU seconds per 1,000 actions by kind of thread, between two readings.
pub fn by_thread(
    start: &BTreeMap<u64, (String, f64)>,
    end: &BTreeMap<u64, (String, f64)>,
    actions: u64,
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    if actions == 0 {
        return out;
    }
    for (tid, (name, seconds)) in end {
        if let Some((_, before)) = start.get(tid) {
            *out.entry(name.clone()).or_default() += (seconds - before) * 1000.0 / actions as f64;
        }
    }
    out
}

/// CPU seconds so far of every process named `postgres` (the server and
/// its backends; those that ended meanwhile are not counted).
pub fn postgres_seconds() -> f64 {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    procs
        .flatten()
        .filter(|p| {
            std::fs::read_to_string(p.path().join("comm")).is_ok_and(|c| c.trim() == "postgres")
        })
        .filter_map(|p| stat_seconds(p.path().join("stat").to_str()?))
        .sum()
}

/// The process's peak resident memory (VmHWM), in KiB.
pub fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
