//! HapMap-like SNP genotype records.

use std::fmt::Write;

use super::text::records_until;
use super::Rng;

/// SNP genotype records in the shape of the HapMap project's genotype dumps: per SNP the rs
/// number, alleles, chromosome position, strand, assay and panel LSIDs and QC code as
/// attributes, and the genotypes of 90 individuals as space-separated text (`AG AA GG ...`,
/// `NN` for a failed call); about `size` bytes.
pub fn hapmap(size: usize, seed: u64) -> Vec<u8> {
    const BASES: &[u8] = b"ACGT";
    const CENTERS: &[&str] = &["sanger", "broad", "bcm", "riken", "perlegen", "ucsf-wu"];
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 4096);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<hm:genotypes xmlns:hm=\"urn:xwire:bench:hapmap\" population=\"CEU\" chromosome=\"chr22\" build=\"ncbi_b36\" release=\"27\">\n<hm:individuals>");
    for i in 0..90 {
        let _ = write!(
            out,
            "<hm:individual id=\"NA{}\" sex=\"{}\"/>",
            6985 + i * 7,
            1 + i % 2
        );
    }
    out.push_str("</hm:individuals>\n");
    let mut pos = 14_430_000u64;
    records_until(&mut out, size, 0, |out| {
        let a = BASES[rng.below(4) as usize] as char;
        let mut b = BASES[rng.below(4) as usize] as char;
        if b == a {
            b = if a == 'A' { 'G' } else { 'A' };
        }
        pos += 1 + rng.below(5000);
        let center = rng.pick(CENTERS);
        let _ = write!(
            out,
            "<hm:snp rs=\"rs{}\" alleles=\"{a}/{b}\" pos=\"{pos}\" strand=\"{}\" center=\"{center}\" protLSID=\"urn:lsid:{center}.hapmap.org:Protocol:genotype_protocol_1:1\" assayLSID=\"urn:lsid:{center}.hapmap.org:Assay:{}:1\" panelLSID=\"urn:lsid:dcc.hapmap.org:Panel:CEPH-30-trios:1\" QCcode=\"QC+\">",
            rng.below(12_000_000),
            if rng.below(2) == 0 { '+' } else { '-' },
            rng.below(1_000_000),
        );
        for i in 0..90 {
            if i > 0 {
                out.push(' ');
            }
            match rng.below(20) {
                0 => out.push_str("NN"),
                r => {
                    out.push(if r % 2 == 0 { a } else { b });
                    out.push(if r % 3 == 0 { a } else { b });
                }
            }
        }
        out.push_str("</hm:snp>\n");
    });
    out.push_str("</hm:genotypes>\n");
    out.into_bytes()
}
