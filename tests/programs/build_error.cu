// Does not compile: the error must come back at this file's line and column.
#include <cstdio>

__global__ void k(int* p) { *p = undeclared_name; }

int main() { return 0; }
