//! `wuzi openings`: a set of random balanced openings for matches
//! (`wuzi::datagen::opening::balanced_set`), as a suite file and in the offset form that
//! Gomocup match runners read.

use crate::rule_parser;
use clap::builder::{RangedI64ValueParser, RangedU64ValueParser};
use indicatif::{ProgressBar, ProgressStyle};
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use wuzi::datagen::opening::{balanced_set, SetSpec};
use wuzi::eval::Evaluation;
use wuzi::types::{Pos, MAX_SIZE, MIN_SIZE};
use wuzi::Rule;

/// Make a set of balanced openings for matches: 2 to 6 random stones near the centre, kept
/// when a search of N nodes scores the position within MARGIN of even, distinct. Writes a
/// suite file (the format of `tests/data/openings`) and, with `--offsets`, the same
/// openings as offsets from the centre, one per line (`0,0, 1,0, 1,3`), the form Gomocup
/// match runners read. The same arguments give the same openings.
#[derive(clap::Args)]
pub struct Args {
    /// The suite file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Also write the openings as offsets from the centre to this file.
    #[arg(long, value_name = "FILE")]
    offsets: Option<PathBuf>,
    /// Openings to find.
    #[arg(long, value_name = "N", default_value_t = 200,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    count: usize,
    /// Nodes of the search that judges each opening.
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = RangedU64ValueParser::<u64>::new().range(100..=100_000_000))]
    nodes: u64,
    /// Largest score from even that is kept (engine units: an open two is about 120).
    #[arg(long, value_name = "MARGIN", default_value_t = 60,
          value_parser = RangedI64ValueParser::<i32>::new().range(0..=10_000))]
    margin: i32,
    /// Rule of the openings.
    #[arg(long, value_name = "R", default_value = "freestyle", ignore_case = true,
          value_parser = rule_parser())]
    rule: Rule,
    /// Board size.
    #[arg(long, value_name = "N", default_value_t = 15,
          value_parser = RangedU64ValueParser::<usize>::new()
              .range(MIN_SIZE as u64..=MAX_SIZE as u64))]
    size: usize,
    /// The evaluation of the judging search: `classical` (the default, so that a set does
    /// not change with the built-in net), `default`, or a net file.
    #[arg(long, value_name = "EVAL", default_value = "classical")]
    eval: String,
    /// Seed: another seed gives another set.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
}

/// Runs the subcommand: exit 0 when the files are written, 2 on an error.
pub fn run(args: Args) -> ExitCode {
    let bar = ProgressBar::new(args.count as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} openings")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
    let eval = match Evaluation::from_arg(&args.eval) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("wuzi openings: {e}");
            return ExitCode::from(2);
        }
    };
    let spec = SetSpec {
        size: args.size,
        rule: args.rule,
        count: args.count,
        nodes: args.nodes,
        margin: args.margin,
        eval,
    };
    let set = balanced_set(&spec, &mut rng, &mut |_, _| bar.inc(1));
    bar.finish_and_clear();
    let (suite, offsets) = render(&args, &set);
    let write = |path: &PathBuf, text: &str| {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    let written = write(&args.out, &suite)
        .and_then(|()| args.offsets.as_ref().map_or(Ok(()), |p| write(p, &offsets)));
    match written {
        Ok(()) => {
            outln!("{} openings written to {}", set.len(), args.out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("wuzi openings: {e}");
            ExitCode::from(2)
        }
    }
}

/// The suite file's text and the offsets file's text of `set`.
fn render(args: &Args, set: &[Vec<Pos>]) -> (String, String) {
    let rule = args.rule.name();
    let mut suite = format!(
        "# id\trule\tmoves\tto_move\ttask\tanswers\tnon_answers\tnote\n\
         # coords: x=column (a=0), y=row from TOP; moves start with black\n\
         # wuzi openings --count {} --nodes {} --margin {} --rule {rule} --size {} --eval {} --seed {}\n",
        args.count, args.nodes, args.margin, args.size, args.eval, args.seed
    );
    let mut offsets = String::new();
    let centre = (args.size / 2) as i64;
    for (i, moves) in set.iter().enumerate() {
        let xy: Vec<String> = moves
            .iter()
            .map(|p| format!("{},{}", p.x(), p.y()))
            .collect();
        let to_move = if moves.len() % 2 == 0 { "B" } else { "W" };
        let _ = writeln!(
            suite,
            "{rule}{}_s{}_{:04}\t{rule}\t{}\t{to_move}\topening\t-\t-\t",
            args.size,
            args.seed,
            i + 1,
            xy.join(" ")
        );
        let off: Vec<String> = moves
            .iter()
            .map(|p| format!("{},{}", p.x() as i64 - centre, p.y() as i64 - centre))
            .collect();
        let _ = writeln!(offsets, "{}", off.join(", "));
    }
    (suite, offsets)
}
