#include "gridlock/error.h"

#include "gridlock/process_group.h"

namespace gridlock {

RuntimeError::RuntimeError(std::string library, std::string call, std::string group, int code,
                           const std::string& detail)
    : std::runtime_error(call + " failed on group '" + group + "': " + library + " error " +
                         std::to_string(code) + " (" + detail + ")"),
      library_(std::move(library)),
      call_(std::move(call)),
      group_(std::move(group)),
      code_(code) {}

void check_mpi(int rc, const char* call, const std::string& group) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  throw RuntimeError("MPI", call, group, rc, len ? std::string(text, len) : "unknown");
}

}  // namespace gridlock
