// lgcheck_kernel_check CERT.json...: run the kernel's certificate check and
// print, per file, its problems and a summary (exit 1 when any is rejected).
#include "detail_tampering.hpp"
#include "lgcheck/kernel/average.hpp"
#include "lgcheck/kernel/certificate.hpp"
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/model/case_file.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>

namespace {

/// lgcheck_kernel_check --detail CERT.json...: per certificate, the numbers of its detail, its free slots, and how
/// many of the numbers lie in free slots (each number's last digit changed alone, the detail still accepted); totals.
int count_detail_numbers(int argc, char** argv) {
  std::size_t numbers = 0, slots = 0, free_numbers = 0;
  for (int a = 2; a < argc; ++a) {
    std::ifstream in(argv[a]);
    const nlohmann::json cert = nlohmann::json::parse(in, nullptr, false);
    // The numbers the full check derives count as tied (L5.3.subsample's premise count).
    const auto facts = lgc::kernel::check_certificate(cert).detail_facts;
    const auto d = cert.is_object() && cert.contains("detail") && cert.contains("case")
                       ? lgc::kernel::check_detail(cert, lgc::parse_case(cert["case"], "inline"), facts)
                       : std::nullopt;
    if (!d || !d->matches) {
      std::cout << argv[a] << ": the detail does not read its sentence\n";
      continue;
    }
    std::size_t here = 0;
    const std::size_t free_here = kt::accepted_tamperings(cert, here, facts);
    std::cout << argv[a] << ": " << here << " numbers, " << d->free_slots << " free slots, " << free_here
              << " numbers in them\n";
    numbers += here, slots += d->free_slots, free_numbers += free_here;
  }
  std::cout << "total: " << numbers << " numbers, " << numbers - free_numbers << " tied, " << free_numbers
            << " in " << slots << " free slots\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // lgcheck_kernel_check --bound41 CASE EPSILON C: the kernel's Theorem 4.1 numbers.
  if (argc == 5 && std::string(argv[1]) == "--bound41") {
    auto c = lgc::load_case(argv[2]);
    const lgc::Rational eps = lgc::parse_rational(argv[3]), k = lgc::parse_rational(argv[4]);
    auto g = lgc::kernel::logit_margin(c.models);
    auto L = lgc::kernel::norm_constant(c.models);
    std::cout << "gamma " << (g ? lgc::to_string(*g) : "inf") << "\nL " << (L ? lgc::to_string(*L) : "-")
              << "\nN_paper " << lgc::to_string(*lgc::kernel::n_paper(c.models, eps, k))
              << "\nN_paper_sum_form " << lgc::to_string(*lgc::kernel::n_paper(c.models, eps, k, true))
              << "\nN_sim " << lgc::to_string(*lgc::kernel::n_sim(c.models, eps)) << "\n";
    return 0;
  }
  // lgcheck_kernel_check --n0 A1,A2,... EPSILON C K: the kernel's N₀ of Theorem 4.2.
  if (argc == 6 && std::string(argv[1]) == "--n0") {
    std::vector<lgc::Rational> alpha;
    std::string list = argv[2];
    for (std::size_t at = 0; at <= list.size();) {
      std::size_t comma = std::min(list.find(',', at), list.size());
      alpha.push_back(lgc::parse_rational(list.substr(at, comma - at)));
      at = comma + 1;
    }
    std::cout << lgc::to_string(lgc::kernel::n0_average(alpha, lgc::parse_rational(argv[3]), lgc::parse_rational(argv[4]),
                                                        static_cast<unsigned>(std::stoul(argv[5]))))
              << "\n";
    return 0;
  }
  if (argc >= 2 && std::string(argv[1]) == "--detail") return count_detail_numbers(argc, argv);
  int rejected = 0;
  for (int a = 1; a < argc; ++a) {
    std::ifstream in(argv[a]);
    nlohmann::json cert = nlohmann::json::parse(in, nullptr, false);
    auto r = lgc::kernel::check_certificate(cert);
    std::cout << argv[a] << ": " << (r.accepted() ? "ACCEPTED" : "REJECTED") << ", " << r.reestablished.size()
              << " re-established, " << r.not_reestablished.size() << " not, " << r.witnesses_checked
              << " witnesses checked\n";
    for (const auto& p : r.problems) std::cout << "  problem: " << p << "\n";
    if (std::getenv("KERNEL_VERBOSE")) {
      for (const auto& p : r.reestablished) std::cout << "  ok: " << p << "\n";
      for (const auto& p : r.not_reestablished) std::cout << "  not: " << p << "\n";
    }
    rejected += !r.accepted();
  }
  return rejected ? 1 : 0;
}
