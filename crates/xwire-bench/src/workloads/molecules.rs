//! Biomedical molecule records shaped like PDBML (the XML form of PDB entries).

use std::fmt::Write;

use super::text::records_until;
use super::Rng;

const RESIDUES: &[&str] = &[
    "ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE", "LEU", "LYS", "MET",
    "PHE", "PRO", "SER", "THR", "TRP", "TYR", "VAL",
];
const ATOMS: &[(&str, &str)] = &[("N", "N"), ("CA", "C"), ("C", "C"), ("O", "O"), ("CB", "C")];

/// A PDBML-like data block: entry, entity and cell categories, then the `atom_siteCategory`
/// with one `atom_site` (about fifteen child elements of coordinates, occupancy, B factor,
/// residue and chain names) per atom; about `size` bytes.
pub fn pdbml(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 4096);
    out.push_str(concat!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<PDBx:datablock datablockName=\"1XWR\" xmlns:PDBx=\"http://pdbml.pdb.org/schema/pdbx-v50.xsd\" ",
        "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n",
        "  <PDBx:entryCategory><PDBx:entry id=\"1XWR\"></PDBx:entry></PDBx:entryCategory>\n",
        "  <PDBx:cellCategory>\n    <PDBx:cell entry_id=\"1XWR\">\n      <PDBx:angle_alpha>90.00</PDBx:angle_alpha>\n",
        "      <PDBx:angle_beta>90.00</PDBx:angle_beta>\n      <PDBx:angle_gamma>90.00</PDBx:angle_gamma>\n",
        "      <PDBx:length_a>52.310</PDBx:length_a>\n      <PDBx:length_b>61.840</PDBx:length_b>\n",
        "      <PDBx:length_c>70.120</PDBx:length_c>\n      <PDBx:Z_PDB>4</PDBx:Z_PDB>\n    </PDBx:cell>\n  </PDBx:cellCategory>\n",
        "  <PDBx:entityCategory>\n",
        "    <PDBx:entity id=\"1\">\n      <PDBx:pdbx_description>Synthetic protein kinase</PDBx:pdbx_description>\n",
        "      <PDBx:src_method>man</PDBx:src_method>\n      <PDBx:type>polymer</PDBx:type>\n    </PDBx:entity>\n",
        "    <PDBx:entity id=\"2\">\n      <PDBx:pdbx_description>water</PDBx:pdbx_description>\n",
        "      <PDBx:type>water</PDBx:type>\n      <PDBx:formula_weight xsi:nil=\"true\" />\n    </PDBx:entity>\n",
        "  </PDBx:entityCategory>\n",
        "  <PDBx:atom_siteCategory>\n",
    ));
    let mut id = 0;
    let mut residue = 0;
    records_until(&mut out, size, 60, |out| {
        residue += 1;
        let comp = rng.pick(RESIDUES);
        let chain = (b'A' + (residue / 300) as u8 % 26) as char;
        for (atom, element) in ATOMS {
            id += 1;
            let _ = write!(
                out,
                concat!(
                    "    <PDBx:atom_site id=\"{}\">\n",
                    "      <PDBx:B_iso_or_equiv>{:.2}</PDBx:B_iso_or_equiv>\n",
                    "      <PDBx:Cartn_x>{:.3}</PDBx:Cartn_x>\n",
                    "      <PDBx:Cartn_y>{:.3}</PDBx:Cartn_y>\n",
                    "      <PDBx:Cartn_z>{:.3}</PDBx:Cartn_z>\n",
                    "      <PDBx:auth_asym_id>{chain}</PDBx:auth_asym_id>\n",
                    "      <PDBx:auth_atom_id>{atom}</PDBx:auth_atom_id>\n",
                    "      <PDBx:auth_comp_id>{comp}</PDBx:auth_comp_id>\n",
                    "      <PDBx:auth_seq_id>{residue}</PDBx:auth_seq_id>\n",
                    "      <PDBx:group_PDB>ATOM</PDBx:group_PDB>\n",
                    "      <PDBx:label_alt_id xsi:nil=\"true\" />\n",
                    "      <PDBx:label_asym_id>{chain}</PDBx:label_asym_id>\n",
                    "      <PDBx:label_atom_id>{atom}</PDBx:label_atom_id>\n",
                    "      <PDBx:label_comp_id>{comp}</PDBx:label_comp_id>\n",
                    "      <PDBx:label_entity_id>1</PDBx:label_entity_id>\n",
                    "      <PDBx:label_seq_id>{residue}</PDBx:label_seq_id>\n",
                    "      <PDBx:occupancy>{:.2}</PDBx:occupancy>\n",
                    "      <PDBx:type_symbol>{element}</PDBx:type_symbol>\n",
                    "    </PDBx:atom_site>\n",
                ),
                id,
                5.0 + rng.unit() * 60.0,
                (rng.unit() - 0.5) * 100.0,
                (rng.unit() - 0.5) * 100.0,
                (rng.unit() - 0.5) * 100.0,
                0.5 + rng.unit() / 2.0,
                chain = chain,
                atom = atom,
                comp = comp,
                residue = residue,
                element = element,
            );
        }
    });
    out.push_str("  </PDBx:atom_siteCategory>\n</PDBx:datablock>\n");
    out.into_bytes()
}
