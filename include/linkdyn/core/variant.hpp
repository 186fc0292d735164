#pragma once
// Types that hold one of several alternatives in a std::variant: `overloaded` lambdas for
// std::visit, and is<T>() / as<T>() on the type that holds the variant.
#include <variant>

namespace linkdyn {

/// std::visit(overloaded{[](const A&) {...}, [](const B&) {...}}, v): one lambda per alternative.
template <class... Ts>
struct overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

/// is<T>() and as<T>() for a type `Self` whose alternatives are the std::variant member that
/// `Self::alternatives` points to (e.g. `static constexpr auto alternatives = &Joint::kind;`).
template <class Self>
struct OneOf {
  template <class T>
  [[nodiscard]] bool is() const {
    return std::holds_alternative<T>(static_cast<const Self&>(*this).*Self::alternatives);
  }
  template <class T>
  [[nodiscard]] const T& as() const {
    return std::get<T>(static_cast<const Self&>(*this).*Self::alternatives);
  }
  template <class T>
  [[nodiscard]] T& as() {
    return std::get<T>(static_cast<Self&>(*this).*Self::alternatives);
  }
};

}  // namespace linkdyn
