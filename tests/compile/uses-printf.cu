// printf cannot run on the simulator: the clang path says so at line 6.
extern "C" __global__ void hello(int* out)
{
    int i = threadIdx.x;
    out[i] = i;
    printf("thread %d\n", i);
}
