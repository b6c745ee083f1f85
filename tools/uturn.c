/* uturn: plan, inspect and check checkpointing schedules. */
#include "cli.h"

#include <string.h>

static const char usage[] =
    "usage: uturn COMMAND [options]   (uturn COMMAND --help for more)\n"
    "\n"
    "  plan PLANNER ...    print a plan (plan file format or JSON)\n"
    "  stats PLANNER ...   print a plan's counts without generating it\n"
    "  check FILE          validate a plan file and print its counts\n"
    "  sweep [--run]       every planner over a range of budgets: how much\n"
    "                      memory buys how much time (the built-in Burgers\n"
    "                      model, or --model ./libMODEL.so)\n"
    "  budget PLANNER ...  the least budget for a recompute factor or a\n"
    "                      cost, or what a budget buys\n"
    "  durable show|remove DIR\n"
    "                      what a durable run's directory holds; remove it\n"
    "\n"
    "Planners: " CLI_PLANNERS ".\n"
    "  -h, --help, --version\n";

static int dispatch(int argc, char **argv)
{
    if (argc < 2)
        return fputs(usage, stderr), CLI_BAD_INPUT;
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0)
        return fputs(usage, stdout), CLI_OK;
    if (strcmp(command, "--version") == 0)
        return printf("uturn %s\n", uturn_version_string()), CLI_OK;
    if (strcmp(command, "plan") == 0)
        return cli_cmd_plan(argc, argv);
    if (strcmp(command, "stats") == 0)
        return cli_cmd_stats(argc, argv);
    if (strcmp(command, "check") == 0)
        return cli_cmd_check(argc, argv);
    if (strcmp(command, "sweep") == 0)
        return cli_cmd_sweep(argc, argv);
    if (strcmp(command, "budget") == 0)
        return cli_cmd_budget(argc, argv);
    if (strcmp(command, "durable") == 0)
        return cli_cmd_durable(argc, argv);
    return cli_fail(
        "unknown command '%s' (plan, stats, check, sweep, budget, durable; "
        "see uturn --help)",
        command);
}

int main(int argc, char **argv)
{
    const int rc = cli_output_open();
    return rc != CLI_OK ? rc : cli_output_done(dispatch(argc, argv));
}
