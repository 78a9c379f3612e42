// Whether this process can do device work, without any CUDA header. Built without CUDA, or
// with no driver (cudaGetDeviceCount fails, e.g. error 35), available() is false and
// unavailable_reason() says why; GPU tests skip on it.
#pragma once

#include <string>

namespace gridlock {

class ProcessGroup;

namespace device {

bool built_with_cuda();
int count();  // 0 when none can be used
bool available();
std::string unavailable_reason();
// Picks the CUDA device by this rank's index among the group's ranks on the same node
// (collective over `group`). Returns the device chosen.
int select_for(const ProcessGroup& group);

}  // namespace device
}  // namespace gridlock
