//! Helpers the studio's integration tests share.
#![allow(dead_code)]

pub mod corpus;
pub mod harness;
pub mod lying;
pub mod matches;
pub mod processes;
pub mod site;
pub mod switch_algo;
pub mod viewer;
