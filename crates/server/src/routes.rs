//! The HTTP API and the pages (see `docs/protocol.md`).

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, MatchedPath, Path, Query, State};
use axum::handler::Handler;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use rust_embed::RustEmbed;
use serde::Deserialize;
use serde_json::{Value, json};
use umpire_core::{Record, Viewer};

use crate::address::Client;
use crate::app::App;
use crate::bodies;
use crate::cluster::wire::{Answer, Ask};
use crate::hub::Found;
use crate::live::Handle;
use crate::origin;
use crate::replay::Refused;
use crate::reply::{Refusal, error, security_headers};
use crate::request::{CreateRequest, TokenQuery};
use crate::ws;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[allow_missing = true]
struct Web;

pub fn router(app: Arc<App>) -> Router {
    let small = middleware::from_fn_with_state(app.clone(), bodies::small);
    let record_body = middleware::from_fn_with_state(app.clone(), bodies::record);
    Router::new()
        .route("/api/games", get(games))
        .route("/api/health", get(health))
        .route("/api/matches", get(lobby).post(create.layer(small.clone())))
        .route("/api/matches/{id}", get(snapshot))
        .route("/api/matches/{id}/record", get(record))
        .route("/api/matches/{id}/words", get(words_route))
        .route("/api/matches/{id}/console", get(words_route))
        .route("/api/matches/{id}/replay", get(replay_match))
        .route("/api/matches/{id}/chat", get(match_chat))
        .route("/api/matches/{id}/claim", post(claim.layer(small)))
        .route("/api/replay", post(replay_upload.layer(record_body)))
        .route("/ws/{id}", get(ws::upgrade))
        .route("/", get(|| page("index")))
        .route("/m/{id}", get(|| page("match")))
        .route("/i/{id}", get(|| page("invite")))
        .route("/host/{id}", get(|| page("host")))
        .route("/replay", get(|| page("replay")))
        .route("/replay/{id}", get(|| page("replay")))
        .route("/rules/{game}", get(|| page("rules")))
        .route("/static/{*path}", get(asset))
        .fallback(|| async { error(404, "no such page or endpoint") })
        // The body middleware above enforces each route's own limit.
        .layer(DefaultBodyLimit::disable())
        .layer(middleware::from_fn_with_state(
            app.clone(),
            origin::same_origin,
        ))
        .layer(middleware::from_fn(within_time))
        .layer(middleware::from_fn(finish))
        .with_state(app)
}

/// A request (its body included) must arrive and be answered within this.
const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Answers `408` to a request whose body trickles in too slowly.
async fn within_time(req: axum::extract::Request, next: middleware::Next) -> Response {
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(req)).await {
        Ok(response) => response,
        Err(_) => error(408, "the request took too long to arrive"),
    }
}

/// Every answer: errors as `{"error": …}` JSON, whoever made them (the
/// router's 404 and 405, a body over the limit, a failed WebSocket
/// upgrade), and the security headers. Links carry seat tokens, so no
/// page sends a referrer, and no answer of the API or to a link with a
/// token is kept by a cache.
async fn finish(req: axum::extract::Request, next: middleware::Next) -> Response {
    let private = req.uri().path().starts_with("/api/")
        || req.uri().query().is_some_and(|q| q.contains("t="));
    let response = next.run(req).await;
    let status = response.status();
    let mut response = if status.is_client_error() || status.is_server_error() {
        json_error(response).await
    } else {
        response
    };
    let headers = response.headers_mut();
    security_headers(headers);
    if private {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// An error answer as `{"error": …}`: its own JSON as it is, else its text
/// (or the status's name) as the message.
async fn json_error(response: Response) -> Response {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if is_json {
        return response;
    }
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body);
    let message = match text.trim() {
        "" => status.canonical_reason().unwrap_or("error").to_lowercase(),
        text => text.to_string(),
    };
    error(status.as_u16(), &message)
}

/// `GET /api/health`: whether this node takes clients (a load balancer's
/// check): `503` once it is shutting down and handing its matches over.
async fn health(State(app): State<Arc<App>>) -> Response {
    if app.hub.leaving() {
        return error(503, "this node is shutting down");
    }
    let node = app.cluster.as_ref().map(|c| c.id.clone());
    Json(json!({"node": node, "matches": app.hub.live_count()})).into_response()
}

async fn games(State(app): State<Arc<App>>) -> Response {
    let text = app
        .games_json
        .get_or_init(|| games_json(app.hub.games(), app.hub.config()));
    ([(header::CONTENT_TYPE, "application/json")], text.clone()).into_response()
}

/// `GET /api/games`'s answer, the same for the server's whole life: made
/// once, so a lobby asking costs nothing.
fn games_json(games: &[&'static dyn umpire_core::AnyGame], config: &crate::Config) -> Bytes {
    let games: Vec<Value> = games
        .iter()
        .map(|g| {
            let bots: Vec<Value> = umpire_catalog::bots(g.id())
                .iter()
                .filter(|b| config.offers(b))
                .map(|b| json!({"name": b.name, "level": b.level.as_str(), "about": b.about}))
                .collect();
            json!({"id": g.id(), "name": g.name(), "rules": g.rules(),
                   "default_config": g.default_config(), "options": g.options(),
                   "bots": bots})
        })
        .collect();
    Bytes::from(json!(games).to_string())
}

async fn create(State(app): State<Arc<App>>, Client(from): Client, body: Bytes) -> Response {
    if !app.allow(&app.creates, "create", from).await {
        return error(
            429,
            "too many matches created from your address; try again in a minute",
        );
    }
    let mut made = create_here(&app, &body, from).await;
    // This node is full: another node with room makes it.
    if made.status == 503 {
        if let (Some(cluster), Ok(text)) = (app.cluster.as_ref(), std::str::from_utf8(&body)) {
            if let Some(node) = app.hub.node_with_room(&cluster.id).await {
                let ask = Ask::Create {
                    body: text.to_string(),
                    from: from.to_string(),
                };
                made = cluster.ask(&node, &ask).await;
            }
        }
    }
    made.into_response()
}

/// Creates a match on this node for a client at `from`.
pub async fn create_here(app: &App, body: &[u8], from: std::net::IpAddr) -> Answer {
    let req: CreateRequest = match serde_json::from_slice(body) {
        Ok(r) => r,
        Err(e) => return Answer::error(400, &format!("bad request: {e}")),
    };
    match app.hub.create(req, from).await {
        Ok(created) => Answer {
            status: 201,
            body: created,
        },
        Err(Refusal(status, words)) => Answer::error(status, &words),
    }
}

/// `POST /api/matches/{id}/claim` with `{"code"}`: the invited seat's link,
/// to the first who asks.
async fn claim(State(app): State<Arc<App>>, Path(id): Path<String>, body: Bytes) -> Response {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Claim {
        code: String,
        /// The keys the claimer holds for this match (its browser's):
        /// the player who sent the invite cannot take it.
        #[serde(default)]
        mine: Vec<String>,
    }
    let req: Claim = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return error(400, &format!("bad request: {e}")),
    };
    let ask = Ask::Claim {
        id,
        code: req.code,
        mine: req.mine,
    };
    answer(&app, ask).await.into_response()
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(self.body)).into_response()
    }
}

/// Answers `ask` about a match where the match is run: here, or by asking
/// the node that runs it.
pub async fn answer(app: &App, ask: Ask) -> Answer {
    let id = match &ask {
        Ask::Snapshot { id, .. }
        | Ask::Record { id, .. }
        | Ask::Claim { id, .. }
        | Ask::Words { id, .. } => id,
        _ => return Answer::error(400, "not an ask about a match"),
    };
    match (app.hub.get(id).await, app.cluster.as_ref()) {
        (Ok(Some(Found::There(node))), Some(cluster)) => cluster.ask(&node, &ask).await,
        _ => answer_here(app, ask).await,
    }
}

/// Answers `ask` about a match this node runs (another node asked, or a
/// client of its own).
pub async fn answer_here(app: &App, ask: Ask) -> Answer {
    let reply = |r: Result<Value, Refusal>| match r {
        Ok(body) => Answer::ok(body),
        Err(Refusal(status, words)) => Answer::error(status, &words),
    };
    match ask {
        Ask::Snapshot { id, token } => reply(snapshot_here(app, &id, token.as_deref()).await),
        Ask::Record { id, token } => reply(record_here(app, &id, token.as_deref()).await),
        Ask::Words { id, token, console } => {
            reply(words_here(app, &id, token.as_deref(), console).await)
        }
        Ask::Claim { id, code, mine } => match here(app, &id).await {
            Ok(handle) => {
                let claimed = app.hub.claim(&handle, &code, &mine).await;
                if claimed.is_ok() {
                    // Lists sorted before still offer the seat.
                    app.lobby.forget();
                }
                reply(claimed)
            }
            Err(r) => reply(Err(r)),
        },
        _ => Answer::error(400, "not an ask about a match"),
    }
}

/// The match, run by this node.
async fn here(app: &App, id: &str) -> Result<Handle, Refusal> {
    match app.hub.get(id).await? {
        Some(Found::Here(handle)) => Ok(handle),
        Some(Found::There(_)) => Err(Refusal(
            503,
            "the match moved to another node; try again".into(),
        )),
        None => Err(Refusal(404, "no match with this id".into())),
    }
}

/// The match, run by this node, and who the token belongs to.
async fn find(app: &App, id: &str, token: Option<&str>) -> Result<(Handle, Viewer), Refusal> {
    let handle = here(app, id).await?;
    match handle.info.viewer(token) {
        Some(viewer) if handle.closed_to(viewer).is_some() => Err(Refusal(
            403,
            handle.closed_to(viewer).unwrap_or_default().into(),
        )),
        Some(viewer) => Ok((handle, viewer)),
        None => Err(Refusal(
            403,
            "this token does not belong to this match".into(),
        )),
    }
}

/// Asks the task running match `id` through `ask`, for the viewer holding
/// `token`. A task found just as it ended (it let the match go or called
/// it off) answers nothing: the match is looked up afresh, a few times at
/// most, so the caller hears where it went or why it ended.
async fn ask_task<T, F>(
    app: &App,
    id: &str,
    token: Option<&str>,
    ask: impl Fn(Handle, Viewer) -> F,
) -> Result<(T, Viewer), Refusal>
where
    F: std::future::Future<Output = Option<T>>,
{
    for _ in 0..3 {
        let (handle, viewer) = find(app, id, token).await?;
        if let Some(answer) = ask(handle, viewer).await {
            return Ok((answer, viewer));
        }
    }
    Err(Refusal(503, "the match is restarting; try again".into()))
}

async fn snapshot_here(app: &App, id: &str, token: Option<&str>) -> Result<Value, Refusal> {
    let ask = |handle: Handle, viewer| async move { handle.snapshot(viewer).await };
    Ok(ask_task(app, id, token, ask).await?.0)
}

/// The record, once the match is over (or for the umpire).
async fn record_here(app: &App, id: &str, token: Option<&str>) -> Result<Value, Refusal> {
    let ask = |handle: Handle, _| async move { handle.record().await };
    let ((record, over), viewer) = ask_task(app, id, token, ask).await?;
    if !over && viewer != Viewer::Umpire {
        return Err(Refusal(
            409,
            "the match is still being played; its record is available at the end".into(),
        ));
    }
    Ok(json!(record))
}

#[derive(Debug, Deserialize)]
struct PageQuery {
    #[serde(default)]
    page: usize,
}

async fn lobby(State(app): State<Arc<App>>, Query(q): Query<PageQuery>) -> Response {
    match app
        .lobby
        .page(&app.hub, q.page, app.cluster.as_deref())
        .await
    {
        Ok(lobby) => Json(lobby).into_response(),
        Err(r) => r.into_response(),
    }
}

async fn snapshot(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Response {
    answer(&app, Ask::Snapshot { id, token: q.t })
        .await
        .into_response()
}

/// The record, once the match is over (or for the umpire), wherever the
/// match is run.
async fn finished_record(app: &App, id: &str, token: Option<String>) -> Result<Record, Response> {
    let ask = Ask::Record {
        id: id.to_string(),
        token,
    };
    let answer = answer(app, ask).await;
    if answer.status != 200 {
        return Err(answer.into_response());
    }
    serde_json::from_value(answer.body).map_err(|e| error(502, &format!("a bad record: {e}")))
}

async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Response {
    match finished_record(&app, &id, q.t).await {
        Ok(record) => {
            let mut response = Json(record).into_response();
            let name = format!("attachment; filename=\"umpire-{id}.json\"");
            if let Ok(value) = HeaderValue::from_str(&name) {
                response
                    .headers_mut()
                    .insert(header::CONTENT_DISPOSITION, value);
            }
            response
        }
        Err(r) => r,
    }
}

async fn replay_match(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
    client: Client,
) -> Response {
    match finished_record(&app, &id, q.t).await {
        Ok(record) => replay_response(&app, client, record).await,
        Err(r) => r,
    }
}

/// The chat kept with a match, once it is over (or for the umpire), for
/// the replay: both rooms, in the order said.
async fn match_chat(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
) -> Response {
    if let Err(r) = finished_record(&app, &id, q.t).await {
        return r;
    }
    match app.hub.store.load(&id).await {
        Ok(Some(loaded)) => Json(json!({ "lines": loaded.chat })).into_response(),
        Ok(None) => error(404, "no match with this id"),
        Err(e) => {
            tracing::error!("{e}");
            error(500, "the store could not be read")
        }
    }
}

async fn replay_upload(State(app): State<Arc<App>>, client: Client, body: Bytes) -> Response {
    match serde_json::from_slice::<Record>(&body) {
        Ok(record) => replay_response(&app, client, record).await,
        Err(e) => error(400, &format!("not a match record: {e}")),
    }
}

async fn replay_response(app: &App, Client(from): Client, record: Record) -> Response {
    if !app.allow(&app.replays_allowed, "replay", from).await {
        return error(
            429,
            "too many replays asked from your address; try again in a minute",
        );
    }
    match app.replays.answer(app.hub.games(), record).await {
        Ok(text) => ([(header::CONTENT_TYPE, "application/json")], text).into_response(),
        Err(Refused(status, why)) => error(status, &why),
    }
}

/// A page: the head all pages share (`web/frame.html`), then the page's own
/// head lines (those before its `<body>`) and its body (`web/pages/`).
async fn page(name: &str) -> Response {
    let (Some(frame), Some(file)) = (
        Web::get("frame.html"),
        Web::get(&format!("pages/{name}.html")),
    ) else {
        return error(404, "no such page");
    };
    let (frame, file) = (
        String::from_utf8_lossy(&frame.data),
        String::from_utf8_lossy(&file.data),
    );
    let (head, body) = file.split_at(file.find("<body").unwrap_or(0));
    served(
        "page.html",
        format!("{frame}{head}</head>\n{body}").into_bytes(),
    )
}

async fn asset(Path(path): Path<String>) -> Response {
    serve_file(&path)
}

fn serve_file(path: &str) -> Response {
    if path.split('/').any(|part| part == "..") {
        return error(404, "no such file");
    }
    match Web::get(path) {
        Some(file) => served(path, file.data.into_owned()),
        None => error(404, "no such file"),
    }
}

/// A file of the web client, typed by the ending of `path`.
fn served(path: &str, body: Vec<u8>) -> Response {
    let headers = [
        (header::CONTENT_TYPE, content_type(path)),
        (header::CACHE_CONTROL, "no-cache"),
    ];
    (headers, body).into_response()
}

fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "md" | "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// `GET /api/matches/{id}/words?t=…`: the words of the token's own viewer
/// (no token: the audience's), as the console shows them for it; and
/// `GET /api/matches/{id}/console?t={umpire token}`: for each player, the
/// audience and the host, the `state` it is sent and its words, each made
/// from its own view.
pub async fn words_route(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<TokenQuery>,
    route: MatchedPath,
) -> Response {
    let ask = Ask::Words {
        id,
        token: q.t,
        console: route.as_str().ends_with("/console"),
    };
    answer(&app, ask).await.into_response()
}

/// The words (or, with `console`, the console's whole bundle) of match
/// `id` for the viewer holding `token`.
async fn words_here(
    app: &App,
    id: &str,
    token: Option<&str>,
    console: bool,
) -> Result<Value, Refusal> {
    let ask = |handle: Handle, viewer: Viewer| async move {
        let viewers = match (console, viewer) {
            (false, viewer) => vec![viewer],
            (true, Viewer::Umpire) => Viewer::ALL.to_vec(),
            (true, _) => {
                let why = "the console is the umpire's: open it with the umpire's link";
                return Some(Err(Refusal(403, why.into())));
            }
        };
        handle.words(viewers).await.map(Ok)
    };
    let (all, viewer) = ask_task(app, id, token, ask).await?;
    let mut all = all?;
    Ok(match console {
        true => all,
        false => all[viewer.to_string()]["words"].take(),
    })
}
