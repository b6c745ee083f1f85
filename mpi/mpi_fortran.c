/* The entries that take a Fortran communicator (an INTEGER handle, or
 * comm%MPI_VAL of mpi_f08), for bindings/fortran/uturn_mpi.f90. */
#include "mpi_internal.h"

uturn_status_t uturn_mpi_plan_create_f(
    MPI_Fint comm, const uturn_executor_t *executor,
    const uturn_problem_t *problem, const uturn_mpi_options_t *options,
    uturn_mpi_plan_t **out, uturn_mpi_plan_info_t *info, uturn_error_t *error)
{
    return uturn_mpi_plan_create(MPI_Comm_f2c(comm), executor, problem, options,
                                 out, info, error);
}

uturn_status_t uturn_mpi_plan_adopt_f(MPI_Fint comm, const uturn_plan_t *plan,
                                      const uturn_mpi_options_t *options,
                                      uturn_mpi_plan_t **out,
                                      uturn_mpi_plan_info_t *info,
                                      uturn_error_t *error)
{
    return uturn_mpi_plan_adopt(MPI_Comm_f2c(comm), plan, options, out, info,
                                error);
}
