//! Rules and help as a terminal shows them: Markdown rendered by termimad,
//! styled on a terminal, plain text (80 columns) otherwise.

use termimad::MadSkin;

/// `markdown` rendered for the terminal; `styled` allows ANSI styles.
pub fn render(markdown: &str, styled: bool) -> String {
    let skin = if styled {
        MadSkin::default()
    } else {
        MadSkin::no_style()
    };
    let width = termimad::terminal_size().0.clamp(40, 100) as usize;
    skin.text(markdown, Some(if styled { width } else { 80 }))
        .to_string()
}

/// The section of `markdown` under the heading `## title`, heading included.
pub fn section<'a>(markdown: &'a str, title: &str) -> Option<&'a str> {
    let start = markdown.find(&format!("## {title}\n"))?;
    let rest = &markdown[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 4);
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_and_plain_text() {
        let md = "# Game\n\nIntro.\n\n## Notation\n\n`E5 F5` places.\n\n## Time\n\nTwo minutes.\n";
        assert_eq!(
            section(md, "Notation"),
            Some("## Notation\n\n`E5 F5` places.\n\n")
        );
        assert_eq!(section(md, "Time"), Some("## Time\n\nTwo minutes.\n"));
        let text = render(md, false);
        assert!(
            text.contains("E5 F5 places.") && !text.contains('`'),
            "{text}"
        );
        assert!(!text.contains("## "), "{text}");
    }
}
