// The one place where exceptions become messages and exit codes (STYLE §3).
#include <iostream>

#include "decomposition/error.hpp"
#include "src/cli/commands.hpp"

namespace tdisc::cli {

int guarded(int (*command)(const Args&), const Args& args) {
  try {
    return command(args);
  } catch (const IoError& e) {
    std::cerr << "tdisc: " << e.located() << "\n";
    return kUsage;
  } catch (const InputError& e) {
    std::cerr << "tdisc: " << e.located() << "\n";
    return kInvalid;
  } catch (const UsageError& e) {
    std::cerr << "tdisc: " << e.what() << "\n";
    return kUsage;
  } catch (const ContractError& e) {
    std::cerr << "tdisc: internal error: " << e.what() << "\n";
    return 70;
  } catch (const std::exception& e) {
    std::cerr << "tdisc: " << e.what() << "\n";
    return kUsage;
  }
}

}  // namespace tdisc::cli
