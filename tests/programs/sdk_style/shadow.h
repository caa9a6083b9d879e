// The program's own shadow.h, found before common/shadow.h.
#pragma once
#define SHADOW_FROM "program folder"
