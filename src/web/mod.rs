//! Front end: the web board (`wuzi serve`). A local HTTP server with one page (embedded
//! HTML, CSS and JavaScript) and a JSON API over games kept per page; searches stream their
//! progress as server-sent events. The only code that knows HTTP; it drives the engine
//! through the facade ([`crate::engine`]) as the prompt does. `docs/web.md` describes the
//! API and the page.
//!
//! ```no_run
//! let server = wuzi::web::Server::start(&wuzi::web::Options::default())?;
//! let page = server.url(); // the address a browser opens
//! server.wait()
//! # ; Ok::<(), std::io::Error>(())
//! ```

mod assets;
pub mod error;
mod games;
pub mod json;
pub mod limits;
mod opening;
mod position;
mod review;
mod routes;
mod search;
mod server;
mod session;
mod strength;

pub use server::{Options, Server};
