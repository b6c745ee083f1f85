// Must not compile (ctest cxx_header_refuses_bool): a callback returning
// bool would read true as "stop the run", so uturn.hpp refuses it; void
// and int are the two results it takes.
#include <uturn.hpp>

int main()
{
    uturn::Model m;
    m.forward = [](std::uint64_t) { return true; };
    return m.forward ? 0 : 1;
}
