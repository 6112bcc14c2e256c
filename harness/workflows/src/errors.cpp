#include "scalefuzz/workflows/errors.hpp"

#include <cerrno>
#include <system_error>

#include "scalefuzz/harness/run_store.hpp"

namespace scalefuzz::workflows {

std::string unexpected_failure(const std::exception& e) {
  const auto* store = dynamic_cast<const harness::StoreError*>(&e);
  const auto* system = dynamic_cast<const std::system_error*>(&e);
  const bool full = (store && store->out_of_space()) ||
                    (system && (system->code() == std::errc::no_space_on_device ||
                                system->code() == std::error_code(EDQUOT, std::generic_category())));
  if (full) return std::string("out of disk space: ") + e.what();
  if (system) return e.what();
  return std::string("internal error: ") + e.what();
}

}  // namespace scalefuzz::workflows
