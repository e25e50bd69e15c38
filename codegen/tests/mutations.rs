//! Mutations of the real spec files (lines dropped, duplicated or swapped, bytes flipped,
//! values replaced) go through load, check and emit: each gives diagnostics or code, never a
//! panic. A small deterministic generator keeps the run reproducible.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::path::PathBuf;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const REPLACEMENTS: &[&str] = &[
    "",
    "~",
    "0",
    "-1",
    "999999999999999999999",
    "[]",
    "{}",
    "\"\"",
    "GET",
    "page<Nope>",
    "list<",
    "{x}",
    "Contcat",
    "true",
    "1.5",
    "*alias",
    "&anchor",
    "!!binary x",
    "/v1/{",
    "a b c",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for _ in 0..1 + rng.below(3) {
        let n = lines.len();
        if n == 0 {
            break;
        }
        let i = rng.below(n);
        match rng.below(6) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let line = lines[i].clone();
                lines.insert(i, line);
            }
            2 => {
                let j = rng.below(n);
                lines.swap(i, j);
            }
            3 => {
                // Replace the value after a colon.
                if let Some((key, _)) = lines[i].split_once(": ") {
                    let value = REPLACEMENTS[rng.below(REPLACEMENTS.len())];
                    lines[i] = format!("{key}: {value}");
                }
            }
            4 => {
                // Flip one byte to another printable character.
                let mut bytes = lines[i].clone().into_bytes();
                if !bytes.is_empty() {
                    let j = rng.below(bytes.len());
                    const PICK: &[u8] = b" :-{}[]#&*!|>'\"%@`,?a1_";
                    bytes[j] = PICK[rng.below(PICK.len())];
                }
                lines[i] = String::from_utf8_lossy(&bytes).into_owned();
            }
            _ => {
                // Re-indent.
                let trimmed = lines[i].trim_start().to_owned();
                lines[i] = format!("{}{trimmed}", " ".repeat(rng.below(9)));
            }
        }
    }
    lines.join("\n")
}

#[test]
fn mutated_specs_never_panic() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec");
    // COMMS_MUTATION_ROUNDS and COMMS_MUTATION_SEED run it longer or differently by hand.
    let rounds: usize = std::env::var("COMMS_MUTATION_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150);
    let seed: u64 = std::env::var("COMMS_MUTATION_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_c0de_1234_5678);
    let mut rng = Rng(seed | 1);
    let (mut clean, mut broken) = (0, 0);
    for name in ["email.yaml", "messaging.yaml", "realtime.yaml"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        for _ in 0..rounds {
            let mutated = mutate(&text, &mut rng);
            let (loaded, errors) = tidings_codegen::load::load_str_partial(name, &mutated);
            let checked = loaded.as_ref().map(tidings_codegen::check::check);
            match checked {
                Some(Ok(service)) if errors.is_empty() => {
                    // A mutation that is still a valid spec must still emit parseable code.
                    tidings_codegen::emit::emit_service(&service).unwrap();
                    clean += 1;
                }
                _ => {
                    broken += 1;
                }
            }
        }
    }
    assert!(
        broken > 0 && clean > 0,
        "mutations should give both outcomes ({clean} clean, {broken} broken)"
    );
}
