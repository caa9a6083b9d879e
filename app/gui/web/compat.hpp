// Force-included into every file of the web build (scripts/build-web.sh): what Debian's
// emscripten 3.1.6 (libc++ 13) lacks of the C++20 library the project uses (std::bit_cast,
// std::make_unique_for_overwrite, std::jthread without stop tokens). Nothing else.
#pragma once
#ifdef __cplusplus
#include <version>
#include <type_traits>
#if !defined(__cpp_lib_bit_cast)
#include <bit>
namespace std {
template <class To, class From>
    requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>)
constexpr To bit_cast(const From& from) noexcept {
    return __builtin_bit_cast(To, from);
}
} // namespace std
#endif
#if !defined(__cpp_lib_smart_ptr_for_overwrite)
#include <memory>
namespace std {
template <class T>
    requires is_unbounded_array_v<T>
unique_ptr<T> make_unique_for_overwrite(size_t n) {
    return unique_ptr<T>(new remove_extent_t<T>[n]);
}
template <class T>
    requires(!is_array_v<T>)
unique_ptr<T> make_unique_for_overwrite() {
    return unique_ptr<T>(new T);
}
} // namespace std
#endif
#if !defined(__cpp_lib_jthread) && __has_include(<thread>)
#include <thread>
#include <utility>
namespace std {
// A thread joined when it is destroyed (the project uses jthread only for that).
class jthread {
public:
    jthread() noexcept = default;
    template <class F, class... A>
        requires(!is_same_v<remove_cvref_t<F>, jthread>)
    explicit jthread(F&& f, A&&... a) : t_(std::forward<F>(f), std::forward<A>(a)...) {}
    jthread(jthread&&) noexcept = default;
    jthread& operator=(jthread&& o) noexcept {
        if (t_.joinable()) t_.join();
        t_ = std::move(o.t_);
        return *this;
    }
    ~jthread() {
        if (t_.joinable()) t_.join();
    }
    bool joinable() const noexcept { return t_.joinable(); }
    void join() { t_.join(); }
    void detach() { t_.detach(); }
    thread::id get_id() const noexcept { return t_.get_id(); }

private:
    thread t_;
};
} // namespace std
#endif
#endif
