//! `xwire bench` and `xwire gen`: the benchmark suite and its workload generator.

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use xwire_bench::{driver, peers, report, workloads};

use crate::Failure;

/// Options of `xwire bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Fewer rounds: the whole suite in well under two minutes.
    #[arg(long)]
    quick: bool,
    /// Only these workloads (comma-separated; see --list).
    #[arg(long, value_name = "WORKLOAD,...")]
    only: Option<String>,
    /// Only these peers (comma-separated; see --list). xwire is always a good idea to include.
    #[arg(long, value_name = "PEER,...")]
    peers: Option<String>,
    /// Also write the full report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Size of generated workloads in bytes (default: each workload's own).
    #[arg(long, value_name = "BYTES", default_value_t = 0)]
    size: usize,
    /// Seed of the generated workloads.
    #[arg(long, default_value_t = workloads::DEFAULT_SEED)]
    seed: u64,
    /// List workloads and peers and exit.
    #[arg(long)]
    list: bool,
}

/// Options of `xwire gen`.
#[derive(clap::Args)]
pub struct GenArgs {
    /// Workload to generate (see `xwire bench --list`).
    name: String,
    /// Approximate size in bytes (default: the workload's own).
    #[arg(long, default_value_t = 0)]
    size: usize,
    /// Seed.
    #[arg(long, default_value_t = workloads::DEFAULT_SEED)]
    seed: u64,
    /// Output file (`-` for standard output).
    #[arg(short, long)]
    output: PathBuf,
}

pub fn bench(args: BenchArgs) -> Result<(), Failure> {
    let selected_peers = peers::select(args.peers.as_deref()).map_err(Failure::usage)?;
    if args.list {
        println!("workloads:");
        for w in workloads::ALL.iter().chain([&workloads::OVERHEAD]) {
            println!("  {:<14} {}", w.name, w.description);
        }
        println!("peers:");
        for p in &selected_peers {
            let state = if p.available() { "" } else { " [not found]" };
            println!("  {:<16} {}{state}", p.name, p.checks);
        }
        return Ok(());
    }
    let chosen: Vec<workloads::Workload> = match &args.only {
        None => workloads::ALL.to_vec(),
        Some(list) => list
            .split(',')
            .map(|n| {
                workloads::Workload::named(n.trim()).ok_or_else(|| {
                    Failure::usage(format!("xwire: unknown workload '{n}' (see --list)"))
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let opts = driver::Options {
        quick: args.quick,
        seed: args.seed,
        size: args.size,
    };
    let bar = ProgressBar::new(chosen.len() as u64 + 1);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
            .expect("valid template"),
    );
    let r = driver::run(&chosen, &selected_peers, &opts, &mut |msg, done, total| {
        bar.set_length(total);
        bar.set_position(done);
        bar.set_message(msg.to_string());
    });
    bar.finish_and_clear();
    print!("{}", report::text(&r));
    if let Some(path) = args.json {
        std::fs::write(&path, report::json(&r))
            .map_err(|e| Failure::usage(format!("xwire: {}: {e}", path.display())))?;
    }
    Ok(())
}

pub fn generate(args: GenArgs) -> Result<(), Failure> {
    let w = workloads::Workload::named(&args.name).ok_or_else(|| {
        Failure::usage(format!(
            "xwire: unknown workload '{}' (see `xwire bench --list`)",
            args.name
        ))
    })?;
    let bytes = w.load(args.size, args.seed).map_err(Failure::usage)?;
    let written = if args.output.as_os_str() == "-" {
        std::io::Write::write_all(&mut std::io::stdout(), &bytes)
    } else {
        std::fs::write(&args.output, &bytes)
    };
    written.map_err(|e| Failure::usage(format!("xwire: {}: {e}", args.output.display())))
}
