// placeholder during parallel work: replaced by the real file
typedef int wf_node_pool_placeholder;
