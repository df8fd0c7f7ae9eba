// placeholder during parallel work: replaced by the real file
typedef int wf_tile_validate_placeholder;
