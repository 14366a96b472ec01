//! Starting and stopping the web server: a listener bound at once (so that the address,
//! port 0's too, is known before anyone connects), served by a one-thread async runtime on
//! its own thread. Searches run on the runtime's blocking threads.

use super::games::Games;
use super::limits::{self, BodyLimit};
use super::routes::router;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::oneshot;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The address to listen on (`127.0.0.1` keeps the board on this machine).
    pub host: String,
    /// The port (0: any free one).
    pub port: u16,
    /// Most searches at once; more are refused with 503.
    pub max_searches: usize,
    /// Most games kept; a new one lets go of the one idle longest.
    pub max_games: usize,
    /// How long a game may go unused (no request, no search) before it is let go.
    pub idle: Duration,
    /// The largest request body, in bytes (413 above it).
    pub max_body: usize,
    /// Most games whose engines keep their hash table between searches; a search beyond
    /// them frees the table of the game that searched longest ago.
    pub max_tables: usize,
    /// Longest analysis, in seconds.
    pub analysis_seconds: f64,
    /// The evaluation the engines play with.
    pub eval: crate::eval::Evaluation,
    /// The position database every game consults and learns from when it ends.
    pub db: Option<crate::db::Db>,
}

impl Default for Options {
    /// 127.0.0.1:8080; as many searches at once as the machine has cores (each search of
    /// the page uses one thread, as at the prompt); 64 games, each let go after 30 minutes
    /// unused, 16 of them keeping their hash tables; bodies of up to 64 KB; analyses of up
    /// to 10 minutes.
    fn default() -> Options {
        Options {
            host: "127.0.0.1".into(),
            port: 8080,
            max_searches: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_games: limits::MAX_GAMES,
            idle: limits::IDLE,
            max_body: limits::BODY_LIMIT,
            max_tables: limits::MAX_TABLES,
            analysis_seconds: 600.0,
            eval: crate::eval::Evaluation::Default,
            db: None,
        }
    }
}

/// A running server. Dropping it stops it.
pub struct Server {
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl Server {
    /// Binds the address and starts serving on a thread of its own.
    pub fn start(options: &Options) -> io::Result<Server> {
        let listener = TcpListener::bind((options.host.as_str(), options.port))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let games = Arc::new(Games::new(options));
        let body = BodyLimit(options.max_body.max(1));
        let sweeper = games.clone();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (shutdown, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("wuzi-web".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    // Games idle past their time are let go even when nobody makes new ones.
                    tokio::spawn(async move {
                        let mut every = tokio::time::interval(limits::sweep_every(sweeper.idle));
                        loop {
                            every.tick().await;
                            sweeper.sweep();
                        }
                    });
                    axum::serve(listener, router(games, body))
                        .with_graceful_shutdown(async move {
                            let _ = stopped.await;
                        })
                        .await
                })
            })?;
        Ok(Server {
            addr,
            shutdown: Some(shutdown),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, `http://host:port/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves until the process ends (or the server fails).
    pub fn wait(mut self) -> io::Result<()> {
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the server thread failed")),
            None => Ok(()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        // Not joined: a page's open stream would hold a graceful shutdown; the thread ends
        // with the process.
    }
}
