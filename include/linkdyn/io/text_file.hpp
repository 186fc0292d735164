#pragma once
// Reading an input file whole, with one clear error for each way a file can be unusable.
#include <cstddef>
#include <string>

namespace linkdyn::io {

/// The largest model or robot file read (YAML, URDF): far above any real model.
inline constexpr std::size_t max_model_file_bytes = std::size_t{64} << 20;
/// The largest table read (CSV of loads, states, trajectories).
inline constexpr std::size_t max_table_file_bytes = std::size_t{1} << 30;

/// The text of the file at `path`, or an InputError (exit 2) naming the file and the fix when it
/// does not exist, is a folder, a device or a socket (a pipe is read), cannot be read, is empty, is larger than
/// `max_bytes`, is binary (a NUL byte) or is not UTF-8 (the line of the first bad byte).
/// `entity` names the file's role in messages ("model", "table").
[[nodiscard]] std::string read_text_file(const std::string& path, const std::string& entity, std::size_t max_bytes);

}  // namespace linkdyn::io
