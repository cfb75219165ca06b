// lgcheck-mpi: `lgcheck check` across MPI ranks. Rank r runs shard r/size of
// the run's claims on cases (the split of `lgcheck check --shard`: one case's
// claims spread over the ranks), the ranks' parts are gathered on rank 0 and
// merged in case order with the expectations compared, so the output is exactly what
// one process prints. Each rank writes its own certificates (--certificates
// must name a directory every rank can write). Usage:
//   mpirun -np N lgcheck-mpi check PATH... [--claims GLOB] [--json] [--certificates DIR] [--threads T]
#include "trust/certificate.hpp"
#include "output/cli_output.hpp"
#include "trust/suite.hpp"

#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/model/case_file.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <iostream>

namespace {

using namespace lgc;

/// Every rank's string on rank 0 (empty elsewhere).
std::vector<std::string> gather_strings(const std::string& mine, int rank, int size) {
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(static_cast<std::size_t>(size), 0);
  int total = 0;
  for (int k = 0; k < size; ++k) offsets[static_cast<std::size_t>(k)] = total, total += lengths[static_cast<std::size_t>(k)];
  std::string all(rank == 0 ? static_cast<std::size_t>(total) : 0, '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  if (rank == 0)
    for (int k = 0; k < size; ++k)
      out.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(k)]),
                               static_cast<std::size_t>(lengths[static_cast<std::size_t>(k)])));
  return out;
}

int run(int argc, char** argv, int rank, int size) {
  CLI::App app{"lgcheck-mpi: lgcheck check across MPI ranks (mpirun -np N lgcheck-mpi check PATH...)", "lgcheck-mpi"};
  app.require_subcommand(1);
  std::vector<std::string> paths;
  std::string glob = "*", certificates;
  bool json = false;
  auto* check = app.add_subcommand("check", "Run the registered claims on case files and directories, split over the ranks");
  check->add_option("PATH", paths, "case files, or directories searched recursively for *.json")->required();
  check->add_option("--claims", glob, "only claims whose id matches this shell pattern")->capture_default_str();
  check->add_flag("--json", json, "print a JSON object: claims and summary");
  check->add_option("--certificates", certificates, "write one certificate per claim into this directory");
  check->add_option_function<unsigned>("--threads", [](const unsigned& n) { set_enumeration_threads(n); },
                                       "threads per rank: claims side by side (without a budget) and each "
                                       "claim's exhaustive enumerations")
      ->check(CLI::Range(1u, 256u));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return rank == 0 ? app.exit(e) : 0;
  }
  std::vector<Case> cases;
  for (const auto& file : collect_case_files(paths)) cases.push_back(load_case(file));
  const Shard shard{static_cast<std::uint64_t>(rank), static_cast<std::uint64_t>(size)};
  auto on_result = [&](const Case& c, const ClaimResult& r) {
    if (!certificates.empty()) write_certificate(certificates, c, r);
  };
  const std::vector<CaseResults> mine = check_cases(cases, glob, shard, {}, on_result);
  const std::vector<std::string> parts = gather_strings(shard_json(mine, shard, cases, glob).dump(), rank, size);
  if (rank != 0) return 0;
  std::vector<nlohmann::json> shards;
  for (const auto& p : parts) shards.push_back(nlohmann::json::parse(p));
  const std::vector<ClaimResult> results = merge_shards(shards);
  if (json) std::cout << results_json(results).dump(2) << "\n";
  else std::cout << results_table(results);
  return exit_code(summarise(results));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = 0;
  try {
    code = run(argc, argv, rank, size);
  } catch (const std::exception& e) {
    std::cerr << "lgcheck-mpi (rank " << rank << "): " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return code;
}
