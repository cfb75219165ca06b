// lgcheck_kernel_check CERT.json...: run the kernel's certificate check and
// print, per file, its problems and a summary (exit 1 when any is rejected).
#include "lgcheck/kernel/certificate.hpp"
#include "lgcheck/kernel/average.hpp"
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/model/case_file.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>

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
