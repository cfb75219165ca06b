// libFuzzer target: arbitrary bytes as a certificate, through the trusted
// kernel's certificate check (lib/kernel), the part of `lgcheck replay` that
// reads every field of the certificate. It must never throw or crash: a
// malformed field, an absurd count or a refused case is a problem it reports.
#include "lgcheck/kernel/certificate.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  try {
    const lgc::kernel::CertificateReport report = lgc::kernel::check_certificate(doc);
    if (report.accepted() && report.reestablished.empty() && report.witnesses_checked == 0 && !doc.is_object())
      __builtin_trap();  // a non-object accepted with nothing checked
  } catch (...) {
    __builtin_trap();  // the contract: never throws
  }
  return 0;
}
