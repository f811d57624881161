// Large grids are read, generated and solved with random accesses over arrays of hundreds of
// megabytes: huge pages cut the TLB misses (see `huge_pages`).
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOC: phineloops::huge_pages::HugePages = phineloops::huge_pages::HugePages;

fn main() {
    std::process::exit(phineloops::cli::main());
}
