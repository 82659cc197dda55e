//! Peak memory of one run, measured in a fresh process.
//!
//! The driver runs `xwire bench --probe-memory PEER OP FILE [--schema S]` (which calls
//! [`probe_main`]) for each measured (workload, peer, operation). The child reads the document,
//! prepares the operation, resets the kernel's resident-set high-water mark
//! (`/proc/self/clear_refs`), runs the operation once and reports `VmHWM - VmRSS` before the
//! run: the memory the run itself touched, whatever allocator the processor uses (malloc in C
//! libraries, Rust's allocator, mmap). Linux only; elsewhere memory is not reported.

use std::path::Path;
use std::process::Command;

use crate::peers::{Op, Setup};

/// Runs the probe in a child process; the peak in bytes.
pub fn probe(
    exe: &Path,
    peer: &str,
    op: Op,
    file: &Path,
    schema: Option<&Path>,
) -> Result<u64, String> {
    let mut cmd = Command::new(exe);
    cmd.args(["bench", "--probe-memory", peer, op.name()])
        .arg(file);
    if let Some(s) = schema {
        cmd.arg("--schema").arg(s);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|e| format!("memory probe answered badly: {e}"))
}

/// The child's side: one run of `op` by `peer` on `file`; the peak in bytes.
pub fn probe_main(peer: &str, op: Op, file: &Path, schema: Option<&Path>) -> Result<u64, String> {
    let doc = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let peers = crate::peers::in_process();
    let p = peers
        .iter()
        .find(|p| p.name == peer)
        .ok_or_else(|| format!("no in-process peer named {peer}"))?;
    let mut run = p
        .prepare(
            op,
            &Setup {
                schema,
                document: Some(&doc),
            },
        )
        .ok_or_else(|| format!("{peer} cannot {op} in this process"))??;
    std::fs::write("/proc/self/clear_refs", "5")
        .map_err(|e| format!("cannot reset the peak RSS: {e}"))?;
    let before = status_kb("VmRSS")?;
    std::hint::black_box(run(std::hint::black_box(&doc)))?;
    let peak = status_kb("VmHWM")?;
    Ok(peak.saturating_sub(before) * 1024)
}

/// A field of /proc/self/status, in kB.
fn status_kb(field: &str) -> Result<u64, String> {
    let s = std::fs::read_to_string("/proc/self/status").map_err(|e| e.to_string())?;
    s.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| format!("no {field} in /proc/self/status"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_of_a_big_document_touches_more_memory_than_a_pull_parse() {
        let dir = std::env::temp_dir().join(format!("xwire-mem-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("po.xml");
        std::fs::write(&file, crate::workloads::purchase_orders(4_000_000, 1)).unwrap();
        // In this process (the test binary) rather than a child: the figures are the same kind.
        let pull = probe_main("xwire", Op::Parse, &file, None).unwrap();
        let tree = probe_main("roxmltree", Op::Tree, &file, None).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert!(tree > 4_000_000, "roxmltree peak {tree}");
        assert!(pull < tree / 4, "pull {pull} vs tree {tree}");
    }
}
