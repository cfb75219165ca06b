// lgcheck_kernel_check CERT.json...: run the kernel's certificate check and
// print, per file, its problems and a summary (exit 1 when any is rejected).
#include "lgcheck/kernel/certificate.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>

int main(int argc, char** argv) {
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
