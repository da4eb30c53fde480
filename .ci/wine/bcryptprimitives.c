/* Wine 8.0 has no bcryptprimitives.dll, whose ProcessPrng Rust's Windows std calls for
 * random bytes (hash seeds). For the tests under Wine only, this stand-in forwards it to
 * RtlGenRandom (advapi32's SystemFunction036), which Wine has. The shipped binary does
 * not change. Built by .ci/run with x86_64-w64-mingw32-gcc into the Wine prefix. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x7fffffff ? 0x7fffffff : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
