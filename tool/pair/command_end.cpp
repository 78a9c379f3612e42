#include "pair/command_end.h"

#include <csignal>
#include <sstream>

namespace gridlock::pair {

int endSignal(const CommandEnd& end) {
  if (!end.known || end.timedOut) return 0;
  if (end.signal) return end.signal;
  // Signal numbers run to 64 (SIGRTMAX); above that an exit status is the command's own.
  return end.exitStatus > 128 && end.exitStatus <= 128 + 64 ? end.exitStatus - 128 : 0;
}

bool isIncident(const CommandEnd& end) { return end.known && (end.timedOut || endSignal(end)); }

bool sameWay(const CommandEnd& a, const CommandEnd& b) {
  return isIncident(a) && isIncident(b) && !a.timedOut && !b.timedOut &&
         endSignal(a) == endSignal(b);
}

std::string signalName(int signal) {
  switch (signal) {
    case SIGHUP:
      return "SIGHUP";
    case SIGINT:
      return "SIGINT";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGILL:
      return "SIGILL";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGUSR2:
      return "SIGUSR2";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGALRM:
      return "SIGALRM";
    case SIGTERM:
      return "SIGTERM";
    case SIGXCPU:
      return "SIGXCPU";
    case SIGXFSZ:
      return "SIGXFSZ";
    default:
      return "";
  }
}

namespace {
std::string signalText(int signal) {
  std::string name = signalName(signal);
  return std::to_string(signal) + (name.empty() ? "" : (", " + name));
}
}  // namespace

std::string describe(const CommandEnd& end) {
  if (end.timedOut) return "timed out after " + std::to_string(end.timeoutSeconds) + "s";
  if (end.signal) {
    std::string name = signalName(end.signal);
    std::string s = "killed by signal " + std::to_string(end.signal);
    return name.empty() ? s : s + " (" + name + ")";
  }
  std::string s = "exited with status " + std::to_string(end.exitStatus);
  if (int sig = endSignal(end)) s += " (signal " + signalText(sig) + ")";
  return s;
}

std::string formatEnd(const CommandEnd& end) {
  if (end.timedOut) return "timeout " + std::to_string(end.timeoutSeconds) + "\n";
  if (end.signal) return "signal " + std::to_string(end.signal) + "\n";
  return "exit " + std::to_string(end.exitStatus) + "\n";
}

CommandEnd parseEnd(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  std::string kind, rest;
  int n = -1;
  if (!(in >> kind >> n) || n < 0 || (in >> rest) ||
      (kind != "exit" && kind != "signal" && kind != "timeout"))
    throw InputError(path +
                     ": not a command end record (\"exit N\", \"signal N\" or \"timeout S\")");
  CommandEnd end;
  end.known = true;
  if (kind == "exit") end.exitStatus = n;
  if (kind == "signal") end.signal = n;
  if (kind == "timeout") {
    end.timedOut = true;
    end.timeoutSeconds = n;
  }
  return end;
}

}  // namespace gridlock::pair
