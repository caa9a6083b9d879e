// Host code that never returns: warpscope run stops it at its time limit.
int main() {
    volatile unsigned long n = 0;
    for (;;) ++n;
}
