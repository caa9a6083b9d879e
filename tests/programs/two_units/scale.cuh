#pragma once
void scaleOnDevice(float* x, float s, int n);
void scaleOnDevice(int* x, int s, int n);
void fillInts(int* x, int v, int n);
int scaleLaunches();
