// The C interface of libcuhost_clang, the module that runs clang-19's
// compiler inside the process (ffi/clang_compile.cpp loads it on the first
// foreign source it compiles). It links libclang-cpp, which no other part of
// cuhost needs: a separate module, loaded only when a source is compiled,
// keeps that library's load time (6-9 ms) out of every process start.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// Compiles as `clang argv[1..argc-1]` would (argv[0]: the clang executable's
// path, which locates clang's own headers), writing the output file the
// arguments name (-o). Returns 0 when compiled, 1 when the source has errors
// (or the compiler crashed), 2 when the arguments cannot be run in process
// (the caller then runs the clang executable). *diagnostics receives clang's
// messages as its executable prints them ("" when none), to be released with
// cuhost_clang_free.
typedef int (*cuhost_clang_compile_fn)(const char* const* argv, int argc, char** diagnostics);
int cuhost_clang_compile(const char* const* argv, int argc, char** diagnostics);

typedef void (*cuhost_clang_free_fn)(char* text);
void cuhost_clang_free(char* text);

#ifdef __cplusplus
}
#endif
