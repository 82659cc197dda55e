// Starts Xerces-C++ once per process for every shim built on it (xerces_shim.cpp and the
// xsdcxx shims): an inline function's local static is one object across translation units,
// initialised once and thread-safely. Never terminated: the process ends with it.
#pragma once

#include <xercesc/util/PlatformUtils.hpp>

inline bool xw_xerces_initialise() {
    static const bool ok = [] {
        try {
            xercesc::XMLPlatformUtils::Initialize();
            return true;
        } catch (...) {
            return false;
        }
    }();
    return ok;
}
