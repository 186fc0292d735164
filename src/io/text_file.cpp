#include "linkdyn/io/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "linkdyn/core/error.hpp"

namespace linkdyn::io {
namespace {

/// Length of the UTF-8 sequence starting at text[at], or 0 when it is not valid UTF-8 (RFC 3629:
/// no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_sequence(const std::string& text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (byte(at + k) < 0x80 || byte(at + k) > 0xBF) return 0;
  return length;
}

int line_of(const std::string& text, std::size_t at) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& entity, std::size_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec == std::errc::too_many_symbolic_link_levels)
    throw InputError({path, 0}, entity, "is a loop of symbolic links (" + ec.message() + ")",
                     "point the link at the file itself");
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw InputError({path, 0}, entity, "cannot be read (" + ec.message() + ")", "check the path and its permissions");
  if (!fs::exists(status)) throw InputError({path, 0}, entity, "the file does not exist", "check the path");
  if (fs::is_directory(status))
    throw InputError({path, 0}, entity, "is a folder, not a file", "give the path of the file in it");
  if (!fs::is_regular_file(status) && !fs::is_fifo(status))  // a pipe, as from <(command), is read
    throw InputError({path, 0}, entity, "is not a regular file (a device or a socket)", "give the path of a file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > max_bytes)
    throw InputError({path, 0}, entity, fmt::format("the file has {} bytes, more than the {} read", size, max_bytes),
                     "check that it is the right file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0}, entity, "cannot read the file", "check its permissions");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError({path, 0}, entity, "reading the file failed", "check the file and the disk");
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError({path, 0}, entity, "the file is empty", "check that it is the right file");
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw InputError({path, line_of(text, nul)}, entity, "is a binary file (it holds a NUL byte), not text",
                     "give the text file (YAML, URDF or CSV)");
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_sequence(text, at);
    if (length == 0)
      throw InputError(
          {path, line_of(text, at)}, entity,
          fmt::format("is not UTF-8 text (byte 0x{:02X} at offset {})", static_cast<unsigned char>(text[at]), at),
          "save the file as UTF-8");
    at += length;
  }
  return text;
}

}  // namespace linkdyn::io
