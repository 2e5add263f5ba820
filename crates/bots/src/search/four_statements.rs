//! Four Statements knowledge for the search.

use umpire_four_statements::FourStatements;

use super::SearchGame;

impl SearchGame for FourStatements {}
