/** The edge-only endpoints (SPEC 4.1): configure the node this process runs as, and report its status. */
import { EdgeConfigurationError, currentEdgeNode, type EdgeNode } from '../../edge-node/edge-node';
import type { EdgeSettings } from '../../edge-node/edge-settings';
import { BadRequest, NotFound } from '../../errors';

function node(): EdgeNode {
  const edge = currentEdgeNode();
  if (!edge) throw new NotFound('Not found'); // not an edge node: the route does not exist here
  return edge;
}

/** Fields left out keep their current value. */
export async function configureEdge(changes: Partial<EdgeSettings>) {
  try {
    const saved = await node().configure({ ...node().settings(), ...changes });
    return { status: 'success', edge_node_id: node().nodeId, configuration: saved, sync_status: (await node().status()).sync_status };
  } catch (err) {
    if (err instanceof EdgeConfigurationError) throw new BadRequest(err.message);
    throw err;
  }
}

export async function edgeStatus() {
  return { status: 'success', ...(await node().status()) };
}
