// The one place where exceptions become messages and exit codes (STYLE §3).
#include <filesystem>
#include <iostream>

#include "base/error.hpp"
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
  } catch (const std::filesystem::filesystem_error& e) {  // "PATH: Not a directory", not the library's text
    std::cerr << "tdisc: " << (e.path1().empty() ? std::string() : e.path1().string() + ": ") << e.code().message() << "\n";
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
