/* The 1D viscous Burgers model and its discrete adjoint (see the header). */
#include "burgers_model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BURGERS_ARRAYS 6 /* u0, target, u, next, ubar, wbar */

struct burgers {
    size_t grid;
    uint64_t steps;
    double dx, dt, nu;
    double alpha;     /* dt / (2 dx): the advective coefficient */
    double beta;      /* nu dt / dx^2: the diffusive coefficient */
    double objective; /* J, set by the turn */
    double *u0;       /* the initial condition */
    double *target;   /* u_target */
    double *u;        /* the live state: the executor copies exactly this */
    double *next;     /* scratch for the forward step */
    double *ubar;     /* the adjoint of the live state */
    double *wbar;     /* scratch for the adjoint step */
};

static size_t left(size_t i, size_t grid)
{
    return i == 0 ? grid - 1 : i - 1;
}

static size_t right(size_t i, size_t grid)
{
    return i + 1 == grid ? 0 : i + 1;
}

/* The fixed initial condition, target and scheme coefficients. */
static void burgers_setup(burgers_t *b)
{
    const double pi = 3.14159265358979323846;
    b->dx           = 2.0 * pi / (double)b->grid;
    b->nu           = fmax(0.05, 0.8 * b->dx);
    b->dt           = 0.25 * b->dx * b->dx / b->nu;
    b->alpha        = b->dt / (2.0 * b->dx);
    b->beta         = b->nu * b->dt / (b->dx * b->dx);
    for (size_t i = 0; i < b->grid; i++) {
        const double x = b->dx * (double)i;
        b->u0[i]       = sin(x) + 0.5 * sin(2.0 * x + 0.3);
        b->target[i]   = 0.5 * sin(x - 1.0) + 0.2 * cos(3.0 * x);
    }
}

int burgers_create(size_t grid, uint64_t steps, burgers_t **out)
{
    if (out == NULL)
        return EINVAL;
    *out = NULL;
    if (grid < 4 || steps == 0)
        return EINVAL;
    if (grid > SIZE_MAX / (BURGERS_ARRAYS * sizeof(double)))
        return ENOMEM;
    burgers_t *const b = calloc(1, sizeof *b);
    double *const mem  = calloc(BURGERS_ARRAYS * grid, sizeof *mem);
    if (b == NULL || mem == NULL) {
        free(b);
        free(mem);
        return ENOMEM;
    }
    b->grid   = grid;
    b->steps  = steps;
    b->u0     = mem;
    b->target = mem + grid;
    b->u      = mem + 2 * grid;
    b->next   = mem + 3 * grid;
    b->ubar   = mem + 4 * grid;
    b->wbar   = mem + 5 * grid;
    burgers_setup(b);
    burgers_reset(b);
    *out = b;
    return 0;
}

void burgers_free(burgers_t *b)
{
    if (b == NULL)
        return;
    free(b->u0); /* the start of the one block of arrays */
    free(b);
}

size_t burgers_grid(const burgers_t *b)
{
    return b->grid;
}

uint64_t burgers_steps(const burgers_t *b)
{
    return b->steps;
}

void burgers_scales(const burgers_t *b, double *dx, double *dt, double *nu)
{
    if (dx != NULL)
        *dx = b->dx;
    if (dt != NULL)
        *dt = b->dt;
    if (nu != NULL)
        *nu = b->nu;
}

/* One explicit step: the live u becomes u at the next time level. */
static void burgers_step(burgers_t *b)
{
    const size_t n  = b->grid;
    const double *u = b->u;
    for (size_t i = 0; i < n; i++) {
        const double ul = u[left(i, n)], ur = u[right(i, n)];
        b->next[i] = u[i] - 0.5 * b->alpha * (ur * ur - ul * ul) +
                     b->beta * (ur - 2.0 * u[i] + ul);
    }
    memcpy(b->u, b->next, n * sizeof *b->u);
}

/* The transpose of burgers_step()'s Jacobian at the live u = u_k, applied
 * to ubar = dJ/du_{k+1}; ubar becomes dJ/du_k. Row i of the Jacobian has
 * 1 - 2 beta on u_i, beta - alpha u_{i+1} on u_{i+1} and beta + alpha
 * u_{i-1} on u_{i-1}; column j collects them from rows j, j-1 and j+1. */
static void burgers_step_adjoint(burgers_t *b)
{
    const size_t n  = b->grid;
    const double *u = b->u;
    const double *w = b->wbar;
    memcpy(b->wbar, b->ubar, n * sizeof *b->ubar);
    for (size_t j = 0; j < n; j++) {
        const double wl = w[left(j, n)], wr = w[right(j, n)];
        b->ubar[j] = (1.0 - 2.0 * b->beta) * w[j] +
                     (b->beta - b->alpha * u[j]) * wl +
                     (b->beta + b->alpha * u[j]) * wr;
    }
}

static int burgers_on_forward(void *user, uint64_t step)
{
    burgers_t *const b = user;
    if (step >= b->steps)
        return 1;
    burgers_step(b);
    return 0;
}

/* J = 0.5 ||u_n - u_target||^2 and its seed dJ/du_n = u_n - u_target. */
static int burgers_on_turn(void *user)
{
    burgers_t *const b = user;
    double sum         = 0.0;
    for (size_t i = 0; i < b->grid; i++) {
        const double d = b->u[i] - b->target[i];
        b->ubar[i]     = d;
        sum += d * d;
    }
    b->objective = 0.5 * sum;
    return 0;
}

static int burgers_on_adjoint(void *user, uint64_t step)
{
    burgers_t *const b = user;
    if (step >= b->steps)
        return 1;
    burgers_step_adjoint(b);
    return 0;
}

/* For online plans: x_n is the last state (the model knows n). */
static int burgers_on_is_last(void *user, uint64_t step)
{
    const burgers_t *b = user;
    return step == b->steps;
}

/* Durable runs: the adjoint state is the adjoint grid and J. */
static int burgers_on_save_adjoint(void *user, void *dst, uint64_t bytes)
{
    const burgers_t *b = user;
    const size_t grid  = b->grid * sizeof *b->ubar;
    if (bytes != grid + sizeof b->objective)
        return 1;
    memcpy(dst, b->ubar, grid);
    memcpy((unsigned char *)dst + grid, &b->objective, sizeof b->objective);
    return 0;
}

static int burgers_on_load_adjoint(void *user, const void *src,
                                   uint64_t bytes)
{
    burgers_t *b      = user;
    const size_t grid = b->grid * sizeof *b->ubar;
    if (bytes != grid + sizeof b->objective)
        return 1;
    memcpy(b->ubar, src, grid);
    memcpy(&b->objective, (const unsigned char *)src + grid,
           sizeof b->objective);
    return 0;
}

void burgers_model(burgers_t *b, uturn_model_t *model)
{
    uturn_model_init(model);
    model->user        = b;
    model->forward     = burgers_on_forward;
    model->turn        = burgers_on_turn;
    model->adjoint     = burgers_on_adjoint;
    model->state       = b->u;
    model->state_bytes = (uint64_t)(b->grid * sizeof *b->u);
    model->is_last     = burgers_on_is_last;
    model->adjoint_bytes =
        (uint64_t)(b->grid * sizeof *b->ubar + sizeof b->objective);
    model->save_adjoint = burgers_on_save_adjoint;
    model->load_adjoint = burgers_on_load_adjoint;
}

void burgers_reset(burgers_t *b)
{
    memcpy(b->u, b->u0, b->grid * sizeof *b->u);
    memset(b->ubar, 0, b->grid * sizeof *b->ubar);
    b->objective = 0.0;
}

const double *burgers_initial(const burgers_t *b)
{
    return b->u0;
}

void burgers_set_initial(burgers_t *b, const double *u0)
{
    memmove(b->u0, u0, b->grid * sizeof *b->u0);
    burgers_reset(b);
}

void burgers_set_target(burgers_t *b, const double *target)
{
    memmove(b->target, target, b->grid * sizeof *b->target);
}

double burgers_evaluate(burgers_t *b)
{
    burgers_reset(b);
    for (uint64_t k = 0; k < b->steps; k++)
        burgers_step(b);
    (void)burgers_on_turn(b);
    memset(b->ubar, 0, b->grid * sizeof *b->ubar);
    return b->objective;
}

double burgers_objective(const burgers_t *b)
{
    return b->objective;
}

const double *burgers_gradient(const burgers_t *b)
{
    return b->ubar;
}
