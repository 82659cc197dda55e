//! `xwire bench` and `xwire gen`: the benchmark suite and its workload generator.

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use xwire_bench::bxsa::{self, Encoding};
use xwire_bench::peers::Op;
use xwire_bench::{driver, memory, peers, report, throughput, workloads};

use crate::Failure;

/// Options of `xwire bench`.
///
/// Besides the workloads, the suite runs the BXSA data-set experiment (binary XML: sizes at
/// 1,000 (int32, float64) pairs against the BXSA paper's, and the time to build, encode,
/// decode and consume 0 to 5.5 million pairs in xwire binary, text XML, gzip'd text and EXI;
/// with --quick 0, 1,000 and 100,000 pairs). It runs when the numeric workloads are chosen
/// (no --only, or --only naming `bxsa` or a `numeric-*` workload) and encode or decode is
/// among --ops (or no --ops); --peers picks its encodings (`xwire`, `text`, `gzip`,
/// `exificient`); --no-bxsa leaves it out. `--only bxsa` runs it alone.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Fewer workloads and rounds: the whole suite in under two minutes.
    #[arg(long)]
    quick: bool,
    /// Only these workloads (comma-separated; see --list); `bxsa` names the BXSA data-set
    /// experiment (`--only bxsa`: it alone).
    #[arg(long, value_name = "WORKLOAD,...")]
    only: Option<String>,
    /// Only these peers (comma-separated; see --list). For the BXSA experiment they pick the
    /// encodings: `xwire` (its binary format), `exificient` (EXI), and the names `text` (text
    /// XML through xwire's writer and reader) and `gzip` (that text gzip'd), which are not
    /// peers of the other workloads; native sizes and memcpy always run.
    #[arg(long, value_name = "PEER,...")]
    peers: Option<String>,
    /// Only these operations (comma-separated: parse, push, tree, reserialize, validate, bind
    /// (typed objects from parsers generated from the schema), check (the same generated
    /// code's validate-only API), events (its event API, and the anyType baseline), index,
    /// pipeline (the five
    /// XPath-and-edit pipelines; or pipeline1 to pipeline5), encode, decode).
    /// With validate, each validating peer's own non-validating parse (libxml2-sax for
    /// libxml2-xsd, xerces-sax2 for xerces-sax2-validating, ...) runs too, for the validation
    /// table, its peer added when --peers left it out.
    #[arg(long, value_name = "OP,...")]
    ops: Option<String>,
    /// Parse each run from a separate copy of the document (64 MB of copies in all), so
    /// caches are not unrealistically warm.
    #[arg(long)]
    cold: bool,
    /// Do not measure peak memory (it runs one short process per measurement).
    #[arg(long)]
    no_memory: bool,
    /// Do not run the throughput mode.
    #[arg(long)]
    no_throughput: bool,
    /// Do not run the BXSA data-set experiment.
    #[arg(long)]
    no_bxsa: bool,
    /// Worker threads of the throughput mode (default: one per CPU).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Also write the full report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Where to write the self-contained HTML page (with SVG charts) and its `report.json`.
    #[arg(long, value_name = "DIR", default_value = "target/bench-report")]
    html: PathBuf,
    /// Size of generated workloads (default: each workload's own; see --list for units).
    #[arg(long, value_name = "N", default_value_t = 0)]
    size: usize,
    /// Seed of the generated workloads.
    #[arg(long, default_value_t = workloads::DEFAULT_SEED)]
    seed: u64,
    /// List workloads and peers and exit.
    #[arg(long)]
    list: bool,
    /// Internal: measure the peak memory of one run (PEER OP FILE) and print it in bytes.
    #[arg(long, hide = true, num_args = 3, value_names = ["PEER", "OP", "FILE"])]
    probe_memory: Option<Vec<String>>,
    /// Internal: the schema for --probe-memory.
    #[arg(long, hide = true)]
    schema: Option<PathBuf>,
}

/// Options of `xwire gen`.
#[derive(clap::Args)]
pub struct GenArgs {
    /// Workload to generate (see `xwire bench --list`).
    name: String,
    /// Size (default: the workload's own; its unit is shown by `xwire bench --list`).
    #[arg(long, default_value_t = 0)]
    size: usize,
    /// Seed.
    #[arg(long, default_value_t = workloads::DEFAULT_SEED)]
    seed: u64,
    /// Output file (`-` for standard output).
    #[arg(short, long)]
    output: PathBuf,
}

fn usage(e: impl std::fmt::Display) -> Failure {
    Failure::usage(format!("xwire: {e}"))
}

pub fn bench(args: BenchArgs) -> Result<(), Failure> {
    if let Some(p) = &args.probe_memory {
        let op =
            Op::from_name(&p[1]).ok_or_else(|| usage(format!("unknown operation {}", p[1])))?;
        let bytes =
            memory::probe_main(&p[0], op, p[2].as_ref(), args.schema.as_deref()).map_err(usage)?;
        println!("{bytes}");
        return Ok(());
    }
    // `text` and `gzip` are encodings of the BXSA experiment, not peers.
    let (peer_list, encodings) = match &args.peers {
        None => (None, Encoding::SELECTABLE.to_vec()),
        Some(list) => {
            let names: Vec<&str> = list
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .collect();
            let encodings = names
                .iter()
                .filter_map(|n| Encoding::from_peer_name(n))
                .collect();
            let rest: Vec<&str> = names
                .into_iter()
                .filter(|&n| !matches!(n, "text" | "gzip"))
                .collect();
            (Some(rest.join(",")), encodings)
        }
    };
    let selected_peers = peers::select(peer_list.as_deref()).map_err(usage)?;
    if args.list {
        println!("workloads:");
        for w in workloads::all() {
            let size = match &w.source {
                workloads::Source::Generated { size, .. } => format!("{size} {}", w.size_unit),
                workloads::Source::Corpus(p) => format!("corpus {p}"),
            };
            // quick: part of --quick; xpath: of the XPath-pipeline set (the pipelines run on it).
            let flags = match (w.quick, w.pipelines) {
                (true, true) => "quick,xpath",
                (true, false) => "quick",
                (false, true) => "xpath",
                (false, false) => "",
            };
            println!(
                "  {:<28} {:<11} {:<22} {}",
                w.name, flags, size, w.description
            );
        }
        println!("peers:");
        for p in &selected_peers {
            let ops: Vec<&str> = p.ops().iter().map(|o| o.name()).collect();
            let state = p
                .missing()
                .map(|m| format!(" [not found: {m}]"))
                .unwrap_or_default();
            println!("  {:<18} [{}] {}{state}", p.name, ops.join(" "), p.checks);
        }
        println!("BXSA experiment (--only bxsa; its encodings by --peers):");
        for e in Encoding::SELECTABLE {
            println!("  {:<18} {}", e.name(), e.title());
        }
        return Ok(());
    }
    let mut only_bxsa = false;
    let mut chosen: Vec<workloads::Workload> = match &args.only {
        None if args.quick => workloads::quick(),
        None => workloads::all(),
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|&n| {
                let bxsa = n == "bxsa";
                only_bxsa |= bxsa;
                !bxsa
            })
            .map(|n| {
                workloads::named(n)
                    .ok_or_else(|| usage(format!("unknown workload '{n}' (see --list)")))
            })
            .collect::<Result<_, _>>()?,
    };
    // --peers naming only `text` or `gzip`: the BXSA experiment alone.
    if selected_peers.is_empty() {
        chosen.clear();
    }
    let ops = match &args.ops {
        None => Vec::new(),
        Some(list) => {
            let mut ops = Vec::new();
            for n in list.split(',') {
                let more = Op::from_names(n.trim())
                    .ok_or_else(|| usage(format!("unknown operation '{n}' ({})", Op::NAMES)))?;
                ops.extend(more);
            }
            ops
        }
    };
    let numeric = match &args.only {
        None => true,
        Some(_) => only_bxsa || chosen.iter().any(|w| w.group == workloads::Group::Numeric),
    };
    let coded = ops.is_empty() || ops.contains(&Op::Encode) || ops.contains(&Op::Decode);
    let run_bxsa = !args.no_bxsa && numeric && coded && !encodings.is_empty();
    let mut opts = driver::Options::new(args.quick);
    opts.seed = args.seed;
    opts.size = args.size;
    opts.ops = ops;
    opts.cold = args.cold;
    if !args.no_memory {
        opts.memory_probe = std::env::current_exe().ok();
    }
    let workdir = std::env::temp_dir().join(format!("xwire-bench-{}", std::process::id()));
    opts.workdir = Some(workdir.clone());

    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
            .expect("valid template"),
    );
    // With validate, the validating peers' own parses run beside them (peers::VALIDATE_BESIDE).
    let asked = selected_peers.len();
    let mut run_peers = selected_peers;
    run_peers.extend(peers::beside_validating(&run_peers, &opts.ops));
    let mut r = driver::run(&chosen, &run_peers, &opts, &mut |msg, done, total| {
        bar.set_length(total);
        bar.set_position(done);
        bar.set_message(msg.to_string());
    });
    // Nothing but the BXSA experiment chosen: no throughput run either.
    if !args.no_throughput && !chosen.is_empty() {
        let mix = throughput_mix(&chosen, &opts, &workdir).map_err(usage)?;
        let mut t = throughput::Options::new(args.quick);
        if let Some(n) = args.threads {
            t.threads = n.max(1);
        }
        bar.set_message("throughput");
        r.throughput = Some(throughput::run(&mix, &run_peers[..asked], &t, &mut |p| {
            bar.set_message(format!("throughput: {p}"))
        }));
    }
    if run_bxsa {
        let mut b = bxsa::Options::new(args.quick);
        b.seed = args.seed;
        b.encodings = encodings;
        b.workdir = Some(workdir.join("bxsa"));
        bar.set_message("BXSA data set");
        r.bxsa = Some(bxsa::run(&b, &run_peers, &mut |m| {
            bar.set_message(m.to_string())
        }));
    }
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(&workdir);
    print!("{}", report::text(&r));
    if let Some(path) = &args.json {
        std::fs::write(path, report::json(&r))
            .map_err(|e| usage(format!("{}: {e}", path.display())))?;
        eprintln!("wrote {}", path.display());
    }
    let page = xwire_bench::html::write(&r, &args.html).map_err(usage)?;
    eprintln!(
        "wrote {} and {}",
        page.display(),
        args.html.join("report.json").display()
    );
    Ok(())
}

/// The documents of the throughput mix: the chosen workloads of message size (SOAP messages,
/// small purchase orders, graphs, namespaces; up to 256 KB), or a default mix when none is.
fn throughput_mix(
    chosen: &[workloads::Workload],
    opts: &driver::Options,
    dir: &std::path::Path,
) -> Result<Vec<throughput::Doc>, String> {
    use workloads::Group;
    let mut mix = Vec::new();
    let add = |mix: &mut Vec<throughput::Doc>,
               w: &workloads::Workload,
               size: usize|
     -> Result<(), String> {
        let bytes = w.load(size, opts.seed)?;
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        let file = dir.join(format!("mix-{}.xml", w.name));
        std::fs::write(&file, &bytes).map_err(|e| e.to_string())?;
        mix.push(throughput::Doc {
            name: w.name.clone(),
            bytes,
            file: Some(file),
        });
        Ok(())
    };
    for w in chosen {
        let message = matches!(
            w.group,
            Group::Soap | Group::Namespaces | Group::ObjectGraphs | Group::Latency
        );
        if message {
            let small = match &w.source {
                workloads::Source::Generated { size, .. } => {
                    w.size_unit != "bytes" || *size <= 256 << 10
                }
                workloads::Source::Corpus(_) => false,
            };
            if small {
                add(&mut mix, w, 0)?;
            }
        }
    }
    if mix.is_empty() {
        for name in ["po", "mesh"] {
            if let Some(w) = workloads::named(name) {
                add(&mut mix, &w, 16_000)?;
            }
        }
    }
    Ok(mix)
}

pub fn generate(args: GenArgs) -> Result<(), Failure> {
    let w = workloads::named(&args.name).ok_or_else(|| {
        usage(format!(
            "unknown workload '{}' (see `xwire bench --list`)",
            args.name
        ))
    })?;
    let bytes = w.load(args.size, args.seed).map_err(usage)?;
    let written = if args.output.as_os_str() == "-" {
        std::io::Write::write_all(&mut std::io::stdout(), &bytes)
    } else {
        std::fs::write(&args.output, &bytes)
    };
    written.map_err(|e| usage(format!("{}: {e}", args.output.display())))
}
