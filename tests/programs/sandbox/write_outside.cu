// Writes a file in its own working folder (allowed) and then at the path it is given (outside
// that folder): the sandbox stops it there.
#include <cstdio>

int main(int argc, char** argv) {
    FILE* in = std::fopen("inside.txt", "w");
    std::printf("inside: %s\n", in ? "written" : "refused");
    if (in) std::fclose(in);
    const char* path = argc > 1 ? argv[1] : "/tmp/warpscope-outside.txt";
    FILE* f = std::fopen(path, "w");
    if (!f) {
        std::printf("outside: refused\n");
        return 1;
    }
    std::fputs("escaped\n", f);
    std::fclose(f);
    std::printf("outside: written\n");
    return 0;
}
