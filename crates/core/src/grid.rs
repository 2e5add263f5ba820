//! The square grids the games are played on. Here: coordinates in the
//! rulebooks' notation, column letter then row number (`A1` is the top-left
//! cell; letters grow rightwards, numbers downwards; input is
//! case-insensitive and allows spaces, `-` or `,` between cells). In
//! [`Board`]: a board as bitboards, neighbours and connected groups. In
//! [`Symmetry`]: turns and mirrors of shapes.

mod board;
mod shape;

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::ParseError;

pub use board::{Board, Groups, bits, nth_bit};
pub use shape::{Symmetry, normalize, picture_cells};

/// A cell of a board, 0-based inside; printed as `A1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub col: u8,
    pub row: u8,
}

impl Cell {
    pub const fn new(col: u8, row: u8) -> Cell {
        Cell { col, row }
    }

    /// The cell at `index` of a board `width` wide, read row by row.
    pub const fn from_index(index: usize, width: u8) -> Cell {
        Cell {
            col: (index % width as usize) as u8,
            row: (index / width as usize) as u8,
        }
    }

    pub const fn index(self, width: u8) -> usize {
        self.row as usize * width as usize + self.col as usize
    }

    /// Parses one cell such as `E5` or `j10`, checked against the board size.
    pub fn parse(text: &str, width: u8, height: u8) -> Result<Cell, ParseError> {
        match parse_cells(text, width, height)?.as_slice() {
            [cell] => Ok(*cell),
            _ => Err(ParseError::new(format!(
                "expected one cell, got `{}`",
                text.trim()
            ))),
        }
    }

    /// Whether the two cells share a side.
    pub fn is_orthogonal_to(self, other: Cell) -> bool {
        self.col.abs_diff(other.col) + self.row.abs_diff(other.row) == 1
    }
}

/// The name of a cell notation writes as a letter and one or two digits
/// (`A1` to `Z99`), kept on the stack.
struct ShortName {
    bytes: [u8; 3],
    len: usize,
}

impl ShortName {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("a letter and digits")
    }
}

impl Cell {
    /// The cell's name made without the format machinery: every legal
    /// action's notation and many views name cells, for every move.
    fn short_name(self) -> Option<ShortName> {
        let row = u16::from(self.row) + 1;
        if self.col >= 26 || row >= 100 {
            return None;
        }
        let (tens, ones) = (b'0' + (row / 10) as u8, b'0' + (row % 10) as u8);
        let letter = b'A' + self.col;
        Some(match row < 10 {
            true => ShortName {
                bytes: [letter, ones, 0],
                len: 2,
            },
            false => ShortName {
                bytes: [letter, tens, ones],
                len: 3,
            },
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.short_name() {
            Some(name) => f.write_str(name.as_str()),
            None => write!(
                f,
                "{}{}",
                (b'A' + self.col) as char,
                u16::from(self.row) + 1
            ),
        }
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.short_name() {
            Some(name) => s.serialize_str(name.as_str()),
            None => s.collect_str(self),
        }
    }
}

/// Reads `A1`-style cells on any board notation allows (26 columns, 99 rows).
impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let text = String::deserialize(d)?;
        Cell::parse(&text, 26, 99).map_err(serde::de::Error::custom)
    }
}

fn last_col(width: u8) -> char {
    (b'A' + width - 1) as char
}

/// Parses a list of cells such as `E5 F5`, `e5-f5`, `E5,F5` or `E5F5`.
/// Every cell must lie on a board `width` × `height`.
pub fn parse_cells(text: &str, width: u8, height: u8) -> Result<Vec<Cell>, ParseError> {
    let mut cells = Vec::new();
    let mut chars = text.char_indices().peekable();
    // The `-` or `,` between the last cell and the next, if any: one at
    // most, and only between two cells.
    let mut joiner: Option<(char, usize)> = None;
    while let Some(&(start, c)) = chars.peek() {
        let at = text[..start].chars().count();
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == '-' || c == ',' {
            if cells.is_empty() || joiner.is_some() {
                return Err(ParseError::new(format!(
                    "unexpected `{c}` in `{}`: `{c}` only goes between two cells",
                    text.trim()
                ))
                .at(at)
                .expected(["a cell like A1"]));
            }
            joiner = Some((c, at));
            chars.next();
            continue;
        }
        joiner = None;
        if !c.is_ascii_alphabetic() {
            return Err(ParseError::new(format!(
                "unexpected `{c}` in `{}`: cells are written like A1",
                text.trim()
            ))
            .at(at)
            .expected(["a cell like A1"]));
        }
        chars.next();
        let mut end = start + c.len_utf8();
        while let Some(&(i, d)) = chars.peek() {
            if !d.is_ascii_digit() {
                break;
            }
            end = i + 1;
            chars.next();
        }
        let token = &text[start..end];
        if let Some(&(_, next)) = chars.peek() {
            if next.is_alphabetic() && token.len() == 1 {
                let word: String = text[start..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric())
                    .collect();
                return Err(ParseError::new(format!(
                    "`{word}` is not a cell: cells are written like A1"
                ))
                .at(at)
                .expected(["a cell like A1"]));
            }
        }
        let col = c.to_ascii_uppercase() as u8 - b'A';
        let row_text = &token[1..];
        if row_text.is_empty() {
            return Err(ParseError::new(format!(
                "`{token}` has no row number: cells are written like A1"
            ))
            .at(at + 1)
            .expected(["a row number"]));
        }
        let row: u32 = row_text.parse().unwrap_or(u32::MAX);
        if col >= width || row == 0 || row > height as u32 {
            return Err(ParseError::new(format!(
                "{} is off the board (columns A–{}, rows 1–{height})",
                token.to_ascii_uppercase(),
                last_col(width)
            ))
            .at(at));
        }
        cells.push(Cell::new(col, (row - 1) as u8));
    }
    if let Some((c, at)) = joiner {
        return Err(ParseError::new(format!(
            "`{}` ends with `{c}`: a cell should follow it",
            text.trim()
        ))
        .at(at)
        .expected(["a cell like A1"]));
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_print_as_notation_whatever_the_row() {
        let cell = |col, row| Cell { col, row }.to_string();
        assert_eq!(cell(0, 0), "A1");
        assert_eq!(cell(8, 8), "I9");
        assert_eq!(cell(9, 9), "J10");
        assert_eq!(cell(25, 98), "Z99");
        assert_eq!(cell(0, 99), "A100");
    }

    #[test]
    fn parses_every_separator_and_case() {
        for text in ["E5 F5", "e5-f5", "E5,F5", " e5F5 ", "E5 - F5"] {
            assert_eq!(
                parse_cells(text, 9, 9).unwrap(),
                vec![Cell::new(4, 4), Cell::new(5, 4)],
                "{text}"
            );
        }
        assert_eq!(Cell::parse("j10", 10, 10).unwrap().to_string(), "J10");
    }

    #[test]
    fn a_joiner_goes_between_two_cells_once() {
        for text in ["E5-F5-", "-E5 F5", "E5--F5", "E5,-F5", "E5 F5,", ","] {
            let e = parse_cells(text, 9, 9).unwrap_err();
            assert!(e.message().contains('`'), "{text}: {e}");
        }
    }

    #[test]
    fn rejects_off_board_and_junk_with_reasons() {
        let off = parse_cells("J1", 9, 9).unwrap_err();
        assert_eq!(off.message(), "J1 is off the board (columns A–I, rows 1–9)");
        assert!(parse_cells("A0", 9, 9).is_err());
        assert!(parse_cells("A99999999999", 9, 9).is_err());
        assert!(
            parse_cells("A", 9, 9)
                .unwrap_err()
                .message()
                .contains("no row")
        );
        assert!(
            parse_cells("5E", 9, 9)
                .unwrap_err()
                .message()
                .contains("unexpected")
        );
        assert!(parse_cells("Ä1", 9, 9).is_err());
        assert_eq!(parse_cells("E5 Ä1", 9, 9).unwrap_err().offset(), Some(3));
        assert_eq!(parse_cells("E5 F", 9, 9).unwrap_err().offset(), Some(4));
        let cell: Cell = serde_json::from_str("\"c7\"").unwrap();
        assert_eq!(cell, Cell::new(2, 6));
        assert!(serde_json::from_str::<Cell>("\"77\"").is_err());
    }
}
