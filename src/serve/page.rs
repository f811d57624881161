//! The page: one HTML file, one script, one style sheet, built into the binary. The server
//! hands them out as three files; [`standalone`] inlines them with a level (and, when the
//! solver found one, its solution for hints) into one file that plays offline.

use serde_json::{Value, json};

use crate::board::BoardLevel;

/// The player script (the same for the server and the standalone file).
pub const JS: &str = include_str!("assets/app.js");
/// The style sheet.
pub const CSS: &str = include_str!("assets/app.css");
/// The page, with the script and style sheet linked.
const HTML: &str = include_str!("assets/index.html");

const CSS_LINK: &str = r#"<link rel="stylesheet" href="app.css">"#;
const JS_LINK: &str = r#"<script src="app.js"></script>"#;

/// The page as the server sends it.
pub fn served() -> String {
    HTML.to_string()
}

/// `text` made safe inside an HTML `<script>` or `<style>` element: no `</` can close it.
fn inline_safe(text: &str) -> String {
    text.replace("</", "<\\/")
}

/// One HTML file that plays `level` with no server: the player, its style and the level
/// inlined (`solution`: the masks the hint button turns pieces towards).
pub fn standalone(level: &BoardLevel, solution: Option<&[u8]>) -> String {
    let solution = solution.map_or(Value::Null, |s| json!(s));
    let data = super::wire::play_text(level, &[("solution", solution)]);
    let embedded = format!(
        "<script type=\"application/json\" id=\"embedded\">{}</script>\n{}",
        inline_safe(&data),
        JS_LINK
    );
    // The script's text never holds `</script`: checked by a test below, so no escape is
    // needed (and none could be applied to code).
    HTML.replacen(CSS_LINK, &format!("<style>\n{CSS}</style>"), 1)
        .replacen(
            JS_LINK,
            &embedded.replace(JS_LINK, &format!("<script>\n{JS}</script>")),
            1,
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Tiling, Wrap};

    #[test]
    fn the_page_links_what_the_server_serves_and_the_file_inlines_it() {
        assert!(HTML.contains(CSS_LINK) && HTML.contains(JS_LINK));
        assert!(!JS.contains("</script") && !CSS.contains("</style"));
        let board = Board::new(Tiling::Hexagonal, 2, 2, Wrap::NONE).unwrap();
        let level = BoardLevel::new(board, vec![1, 8, 2, 16]).unwrap();
        let file = standalone(&level, Some(&[1, 8, 2, 16]));
        assert!(!file.contains(CSS_LINK) && !file.contains(JS_LINK));
        assert!(file.contains("id=\"embedded\"") && file.contains("\"solution\":[1,8,2,16]"));
        // Nothing is fetched: no address of any other place.
        assert!(!file.contains("http://") && !file.contains("https://"));
    }
}
