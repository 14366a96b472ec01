//! The page's files (`web/` in the repository), built into the binary so that `wuzi serve`
//! needs nothing beside it and the page works offline.

/// The page.
pub const INDEX_HTML: &str = include_str!("../../web/index.html");
/// Its style sheet.
pub const STYLE_CSS: &str = include_str!("../../web/style.css");
/// Its script (plain JavaScript, no build step).
pub const APP_JS: &str = include_str!("../../web/app.js");
