fn main() {
    std::process::exit(phineloops::cli::main());
}
