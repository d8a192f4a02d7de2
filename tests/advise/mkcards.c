/*
 * tests/advise/mkcards.c - write the cards of a dataset without training:
 *
 *   advise_mkcards DATASET OUT.json
 *
 * The same code `iosage train` runs after training (iosage_cards_build on
 * the dataset, iosage_cards_save); models/default/cards.json was made with
 * it from data/bench-runs, so the shipped models need not be retrained.
 */
#include <stdio.h>

#include "iosage/advise.h"
#include "iosage/model.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: advise_mkcards DATASET OUT.json\n", stderr);
        return 2;
    }
    iosage_error err;
    iosage_dataset *ds = NULL;
    iosage_cards *c = NULL;
    iosage_status st = iosage_dataset_load(argv[1], NULL, NULL, &ds, &err);
    if (st == IOSAGE_OK)
        st = iosage_cards_build(ds, &c, &err);
    if (st == IOSAGE_OK)
        st = iosage_cards_save(c, argv[2], &err);
    if (st != IOSAGE_OK) {
        char line[800];
        fprintf(stderr, "advise_mkcards: %s\n",
                iosage_error_line(&err, line, sizeof line));
    } else {
        fprintf(stderr, "advise_mkcards: %ld train runs (%zu rows, %zu "
                "skipped) -> %s\n", iosage_cards_runs(c), ds->n_rows,
                ds->n_skipped, argv[2]);
    }
    iosage_cards_free(c);
    iosage_dataset_free(ds);
    return st == IOSAGE_OK ? 0 : 1;
}
