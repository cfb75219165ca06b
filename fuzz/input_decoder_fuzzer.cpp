// libFuzzer target: arbitrary bytes as an input string of a small model, and
// as the parameters of a statistic: decoding must refuse cleanly (InputError,
// std::invalid_argument) or round-trip exactly.
#include "lgcheck/model/input.hpp"
#include "lgcheck/semantics/one_layer.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const lgc::Model model = lgc::modp_task(3, lgc::Semantics::hardmax());
  static const lgc::OneLayerEvaluator eval(model);
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    lgc::Tokens x = lgc::parse_input(model, text);
    if (lgc::parse_input(model, lgc::format_input(model, x)) != x) __builtin_trap();
    lgc::Statistic s = lgc::statistic_of(eval.shape(), x);
    if (!(lgc::statistic_of(eval.shape(), lgc::string_of(eval.shape(), s)) == s)) __builtin_trap();
    if (x.size() <= 64 && !(eval.evaluate(s)[0] == lgc::evaluate(model, x, lgc::ForwardOptions{})[0])) __builtin_trap();
  } catch (const lgc::InputError&) {
  }
  // The same bytes as a statistic: length, window, counts.
  if (size >= 4) {
    lgc::Statistic s;
    s.length = 1 + data[0] % 40;
    s.window = {data[1] % 3};
    for (std::size_t k = 0; k < 6; ++k) s.counts.push_back(k + 2 < size ? data[k + 2] % 16 : 0);
    try {
      lgc::validate_statistic(eval.shape(), s);
      if (!(lgc::statistic_of(eval.shape(), lgc::string_of(eval.shape(), s)) == s)) __builtin_trap();
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}
