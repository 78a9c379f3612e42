#include "support/interrupt.h"

#include <csignal>
#include <string>

namespace gridlock::support {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, 0};

volatile sig_atomic_t gSignal = 0;
volatile sig_atomic_t gGroup = 0;
int gDepth = 0;  // scopes open; the outermost installs the handlers
struct sigaction gPrevious[3];

void onSignal(int signal) {
  gSignal = signal;
  pid_t group = gGroup;
  if (group > 0) kill(-group, signal);  // async-signal-safe
}

const char* nameOf(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP";
}

}  // namespace

InterruptScope::InterruptScope() {
  if (gDepth++ > 0) return;
  gSignal = 0;
  gGroup = 0;
  struct sigaction sa = {};
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking read or wait returns EINTR and looks again
  for (int i = 0; kSignals[i]; ++i) sigaction(kSignals[i], &sa, &gPrevious[i]);
}

InterruptScope::~InterruptScope() {
  if (--gDepth > 0) return;
  for (int i = 0; kSignals[i]; ++i) sigaction(kSignals[i], &gPrevious[i], nullptr);
  gGroup = 0;
}

int interruptSignal() { return gSignal; }

void setForwardGroup(pid_t pgid) { gGroup = pgid; }

Interrupted::Interrupted(int signal)
    : std::runtime_error("interrupted by signal " + std::to_string(signal) + " (" + nameOf(signal) +
                         ")"),
      signal_(signal) {}

void throwIfInterrupted() {
  if (int s = gSignal) throw Interrupted(s);
}

const int* interruptSignals() { return kSignals; }

}  // namespace gridlock::support
