// `contactlab validate` (also the default job): the validation scenes with
// their errors against the analytic references.
#pragma once

namespace contactlab {
int validate_command(bool json);
}
