// The legacy API's strict-mode switch. It lives with the pure layout code because the legacy
// tp_shard globals (no MPI) obey it as much as parallel_state does.
#pragma once

namespace gridlock::legacy {

void set_strict(bool strict);
bool strict();
// Throws std::logic_error naming `accessor` when strict mode is on.
void check_not_strict(const char* accessor);

}  // namespace gridlock::legacy
