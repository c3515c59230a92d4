#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| floe_fuzz::levels(data, None, None));
