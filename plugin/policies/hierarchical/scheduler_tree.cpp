/* Cao et al., sections 2 and 4.2: the scheduler tree, generated or given (see scheduler_tree.hpp). */
#include "policies/hierarchical/scheduler_tree.hpp"

#include "core/random.hpp"

#include <boost/graph/graphml.hpp>
#include <boost/property_map/dynamic_property_map.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <algorithm>
#include <cctype>
#include <deque>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

namespace jobsched::hierarchical {

SchedulerTree generate_tree(int levels_wanted, int min_children, int max_children, std::uint64_t seed)
{
  if (levels_wanted < 2 || min_children < 1 || max_children < min_children)
    throw std::invalid_argument("generate_tree: levels >= 2 and 1 <= min_children <= max_children");
  RandomStream fanout(seed, "hierarchy tree");
  SchedulerTree tree;
  TreeVertex root = boost::add_vertex(SchedulerNode{levels_wanted}, tree);
  // Breadth first, so that vertex numbers go level by level and children keep their drawing order.
  std::vector<TreeVertex> frontier{root};
  for (int level = levels_wanted; level > 2; level--) {
    std::vector<TreeVertex> next;
    for (TreeVertex v : frontier) {
      const int count = fanout.uniform_int(min_children, max_children);
      for (int c = 0; c < count; c++) {
        TreeVertex child = boost::add_vertex(SchedulerNode{level - 1}, tree);
        boost::add_edge(v, child, tree);
        next.push_back(child);
      }
    }
    frontier = std::move(next);
  }
  return tree;
}

SchedulerTree tree_from_parents(const std::vector<int>& parents)
{
  if (parents.empty() || parents[0] != -1) throw std::invalid_argument("the first node must be the root");
  const size_t n = parents.size();
  std::vector<int> depth(n, 0);
  std::vector<bool> has_children(n, false);
  for (size_t i = 1; i < n; i++) {
    if (parents[i] < 0 || static_cast<size_t>(parents[i]) >= i)
      throw std::invalid_argument("node " + std::to_string(i) + ": its parent must come before it");
    depth[i] = depth[static_cast<size_t>(parents[i])] + 1;
    has_children[static_cast<size_t>(parents[i])] = true;
  }
  int leaf_depth = -1;
  for (size_t i = 0; i < n; i++) {
    if (has_children[i]) continue;
    if (leaf_depth < 0) leaf_depth = depth[i];
    if (depth[i] != leaf_depth)
      throw std::invalid_argument("every leaf must be at the same depth (the jobs' schedulers form level 2), found "
                                  "leaves at depths " +
                                  std::to_string(leaf_depth) + " and " + std::to_string(depth[i]));
  }
  SchedulerTree tree;
  for (size_t i = 0; i < n; i++)
    boost::add_vertex(SchedulerNode{2 + leaf_depth - depth[i]}, tree);
  for (size_t i = 1; i < n; i++)
    boost::add_edge(static_cast<TreeVertex>(parents[i]), static_cast<TreeVertex>(i), tree);
  return tree;
}

namespace {

struct GraphmlNode {
  std::string name;
  std::string host;
};
using GraphmlTree = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, GraphmlNode>;

/* Boost's messages may span lines: one line for the user. */
std::string one_line(std::string text)
{
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  return text;
}

std::string describe(const GraphmlTree& g, size_t v)
{
  const std::string& name = g[v].name;
  return "node " + std::to_string(v + 1) + (name.empty() ? "" : " ('" + name + "')");
}

/* The line of each <node>, <edge> and <graph> start tag, in document order (the order of a depth-first walk of the
 * property tree read_graphml reads). Comments, CDATA, processing instructions and declarations are skipped; a '<'
 * cannot appear elsewhere in well-formed XML. */
std::vector<long> element_lines(const std::string& text)
{
  std::vector<long> lines;
  long line = 1;
  auto skip_to = [&](size_t from, const char* end_mark) {
    const size_t end = text.find(end_mark, from);
    const size_t stop = end == std::string::npos ? text.size() : end;
    line += static_cast<long>(
        std::count(text.begin() + static_cast<long>(from), text.begin() + static_cast<long>(stop), '\n'));
    return stop;
  };
  for (size_t i = 0; i < text.size(); i++) {
    if (text[i] == '\n') line++;
    if (text[i] != '<') continue;
    if (text.compare(i, 4, "<!--") == 0)
      i = skip_to(i, "-->");
    else if (text.compare(i, 9, "<![CDATA[") == 0)
      i = skip_to(i, "]]>");
    else if (text.compare(i, 2, "<?") == 0)
      i = skip_to(i, "?>");
    else if (text.compare(i, 2, "<!") == 0)
      i = skip_to(i, ">");
    else {
      size_t end = i + 1;
      while (end < text.size() && text[end] != '>' && text[end] != '/' &&
             !std::isspace(static_cast<unsigned char>(text[end])))
        end++;
      const std::string name = text.substr(i + 1, end - i - 1);
      if (name == "node" || name == "edge" || name == "graph") lines.push_back(line);
    }
    if (i >= text.size()) break;
  }
  return lines;
}

/* What read_graphml lets through: an edge to an id no node has (it makes up the node), two nodes with one id (it
 * merges them) and any <graph> after the first (it reads the first only). Each is refused naming its line. */
void check_graphml_ids(const std::string& text)
{
  namespace pt = boost::property_tree;
  pt::ptree doc;
  std::istringstream in(text);
  pt::read_xml(in, doc, pt::xml_parser::no_comments | pt::xml_parser::trim_whitespace);
  const std::vector<long> lines = element_lines(text);
  size_t element = 0; // index in `lines` of the element being visited
  auto line_of = [&lines](size_t index) {
    return "line " + (index < lines.size() ? std::to_string(lines[index]) : std::string("?"));
  };
  struct Edge {
    std::string source, target;
    size_t element;
  };
  std::map<std::string, size_t> node_element; // id -> its element index
  std::vector<Edge> edges;
  int graphs = 0;
  auto visit = [&](const auto& self, const pt::ptree& tree) -> void {
    for (const auto& [name, child] : tree) {
      if (name != "node" && name != "edge" && name != "graph") {
        self(self, child);
        continue;
      }
      const size_t index = element++;
      if (name == "graph" && ++graphs > 1)
        throw std::invalid_argument(line_of(index) + ": a second <graph> (a file holds one tree)");
      if (name == "node") {
        const std::string id = child.get("<xmlattr>.id", "");
        auto [it, added] = node_element.emplace(id, index);
        if (!added)
          throw std::invalid_argument(line_of(index) + ": a second node with id '" + id + "' (the first is at " +
                                      line_of(it->second) + ")");
      }
      if (name == "edge")
        edges.push_back({child.get("<xmlattr>.source", ""), child.get("<xmlattr>.target", ""), index});
      self(self, child);
    }
  };
  visit(visit, doc);
  for (const Edge& e : edges)
    for (const std::string* end : {&e.source, &e.target})
      if (node_element.count(*end) == 0)
        throw std::invalid_argument(line_of(e.element) + ": the edge from '" + e.source + "' to '" + e.target +
                                    "' names node '" + *end + "', which no <node> defines");
}

} // namespace

TreeDescription tree_from_graphml(std::istream& in)
{
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::istringstream graphml(text);
  GraphmlTree g;
  boost::dynamic_properties dp; // no generator: an attribute other than these two throws property_not_found
  dp.property("name", boost::get(&GraphmlNode::name, g));
  dp.property("host", boost::get(&GraphmlNode::host, g));
  try {
    boost::read_graphml(graphml, g, dp);
  } catch (const boost::property_not_found& e) {
    throw std::invalid_argument("unknown attribute '" + e.property + "' (a node may have 'name' and 'host')");
  } catch (const std::exception& e) { // Boost.Graph's parse errors, property_tree's XML parser, among others
    throw std::invalid_argument("malformed GraphML: " + one_line(e.what()));
  }
  check_graphml_ids(text); // after read_graphml, so that a malformed file keeps its parser's message
  const size_t n = boost::num_vertices(g);
  if (n == 0) throw std::invalid_argument("the graph has no node");
  std::vector<size_t> roots;
  for (size_t v = 0; v < n; v++) {
    const auto parents = boost::in_degree(v, g);
    if (parents > 1) throw std::invalid_argument(describe(g, v) + " has " + std::to_string(parents) + " parents");
    if (parents == 0) roots.push_back(v);
  }
  if (roots.empty()) throw std::invalid_argument("no root: every node has a parent, so the edges form a cycle");
  if (roots.size() > 1)
    throw std::invalid_argument("several roots: " + describe(g, roots[0]) + " and " + describe(g, roots[1]) +
                                " have no parent");
  // Breadth first from the root: a parent gets its new number before its children.
  std::vector<int> number(n, -1);
  std::deque<size_t> queue{roots[0]};
  TreeDescription out;
  number[roots[0]] = 0;
  while (!queue.empty()) {
    const size_t v = queue.front();
    queue.pop_front();
    auto in = boost::in_edges(v, g);
    out.parents.push_back(in.first == in.second ? -1 : number[boost::source(*in.first, g)]);
    out.names.push_back(g[v].name);
    out.hosts.push_back(g[v].host);
    for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
      const size_t child = boost::target(*e, g);
      number[child] = static_cast<int>(out.parents.size() + queue.size());
      queue.push_back(child);
    }
  }
  for (size_t v = 0; v < n; v++)
    if (number[v] < 0) throw std::invalid_argument("a cycle: " + describe(g, v) + " cannot be reached from the root");
  return out;
}

int levels(const SchedulerTree& tree)
{
  return tree[0].level;
}

std::vector<TreeVertex> children(const SchedulerTree& tree, TreeVertex v)
{
  std::vector<TreeVertex> out;
  for (auto [e, end] = boost::out_edges(v, tree); e != end; ++e)
    out.push_back(boost::target(*e, tree));
  return out;
}

long parent(const SchedulerTree& tree, TreeVertex v)
{
  auto [e, end] = boost::in_edges(v, tree);
  return e == end ? -1 : static_cast<long>(boost::source(*e, tree));
}

std::vector<TreeVertex> leaves(const SchedulerTree& tree)
{
  std::vector<TreeVertex> out;
  for (auto [v, end] = boost::vertices(tree); v != end; ++v)
    if (tree[*v].level == 2) out.push_back(*v);
  return out;
}

std::vector<long> nodes_per_level(const SchedulerTree& tree)
{
  std::vector<long> out(static_cast<size_t>(levels(tree)) + 1, 0);
  for (auto [v, end] = boost::vertices(tree); v != end; ++v)
    out[static_cast<size_t>(tree[*v].level)]++;
  return out;
}

} // namespace jobsched::hierarchical
